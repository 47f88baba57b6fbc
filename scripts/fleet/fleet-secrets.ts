import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRON_ACCOUNT_PATH, tronAddressOfPrivateKey } from '@gridbot/services';
import { utils as tron } from 'tronweb';

/**
 * A fleet's secrets, made fresh for each fleet as an operator would make them for an installation
 * (docs/security.md#secrets): random sign-in and sealing keys, a bot token the sandbox's Bot API
 * stand-in accepts, an invite code, and the wallet's keys — an extended public key for deposit
 * addresses and a separate hot-wallet key in a file only the watcher reads. Nothing here is a demo
 * key: the apps run outside demo mode, as in production.
 */
export type FleetSecrets = {
  botToken: string;
  jwtSecret: string;
  rootReferralCode: string;
  /** Files, as docker-compose hands them to the apps. */
  secretsKeyFile: string;
  hotWalletKeyFile: string;
  walletXpub: string;
  hotWalletAddress: string;
};

const token = (bytes: number): string => randomBytes(bytes).toString('base64url');

export const makeFleetSecrets = (dir: string): FleetSecrets => {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secretsKeyFile = join(dir, 'secrets-key');
  writeFileSync(secretsKeyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  const hotWalletKey = randomBytes(32).toString('hex');
  const hotWalletKeyFile = join(dir, 'hot-wallet-key');
  writeFileSync(hotWalletKeyFile, hotWalletKey, { mode: 0o600 });
  const account = tron.ethersUtils.ethersHDNodeWallet.fromSeed(randomBytes(32)).derivePath(TRON_ACCOUNT_PATH);
  return {
    botToken: `${1_000_000 + randomBytes(3).readUIntBE(0, 3)}:${token(30)}`,
    jwtSecret: token(32),
    rootReferralCode: `fleet${token(12)}`,
    secretsKeyFile,
    hotWalletKeyFile,
    walletXpub: account.neuter().extendedKey,
    hotWalletAddress: tronAddressOfPrivateKey(hotWalletKey),
  };
};
