import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, weakSecretProblem } from '@gridbot/config';
import { parseSecretKeys } from './secret-box';

export type SecretKeySource = {
  SECRETS_KEY?: string | undefined;
  SECRETS_KEY_FILE?: string | undefined;
  DEMO: boolean;
};

/**
 * The master keys for exchange secrets: SECRETS_KEY, else the file SECRETS_KEY_FILE, else (demo
 * only) a key generated once into `demoKeyFile` so the demo's stored keys survive restarts.
 */
export const loadSecretKeys = (env: SecretKeySource, demoKeyFile: string): Buffer[] => {
  if (env.SECRETS_KEY) return parseSecretKeys(env.SECRETS_KEY);
  if (env.SECRETS_KEY_FILE) {
    const text = readFileSync(env.SECRETS_KEY_FILE, 'utf8').trim();
    const problem = env.DEMO ? null : weakSecretProblem(text, 128);
    if (problem) throw new ConfigError(`SECRETS_KEY_FILE (${env.SECRETS_KEY_FILE}): ${problem}`);
    return parseSecretKeys(text);
  }
  if (!env.DEMO) throw new ConfigError('SECRETS_KEY or SECRETS_KEY_FILE is required outside demo mode');
  if (!existsSync(demoKeyFile)) {
    mkdirSync(dirname(demoKeyFile), { recursive: true });
    writeFileSync(demoKeyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return parseSecretKeys(readFileSync(demoKeyFile, 'utf8'));
};
