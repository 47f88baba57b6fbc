import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';

/**
 * Variables that may also come from a file (`<NAME>_FILE`), as docker secrets and other secret
 * stores hand them over (docs/security.md#secrets): the file's content, trimmed, is the value.
 * SECRETS_KEY_FILE and HOT_WALLET_KEY_FILE are read by the code that uses them.
 */
export const FILE_VARIABLES = [
  'BOT_TOKEN',
  'JWT_SECRET',
  'ROOT_REFERRAL_CODE',
  'DATABASE_URL',
  'REDIS_URL',
  'TRON_API_KEY',
  'WALLET_XPUB',
  'METRICS_TOKEN',
] as const;

/** `source` with every `<NAME>_FILE` of FILE_VARIABLES read into `<NAME>`; both given is an error. */
export const resolveSecretFiles = (
  source: Record<string, string | undefined>,
): Record<string, string | undefined> => {
  const resolved = { ...source };
  const problems: string[] = [];
  for (const name of FILE_VARIABLES) {
    const file = source[`${name}_FILE`];
    if (!file) continue;
    if (source[name]) {
      problems.push(`${name}_FILE: ${name} is set too; give one of them`);
      continue;
    }
    try {
      resolved[name] = readFileSync(file, 'utf8').trim();
    } catch (error) {
      problems.push(
        `${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (problems.length > 0)
    throw new ConfigError(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return resolved;
};
