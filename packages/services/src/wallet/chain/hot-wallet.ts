import { readFileSync } from 'node:fs';
import { ConfigError, type Env } from '@gridbot/config';
import type { PrismaClient } from '@gridbot/db';
import { demoHotWalletKey, demoXpub, deriveDepositAddress, tronAddressOfPrivateKey } from '../tron-keys';

/** The key that signs withdrawals and the address it pays from. */
export type HotWallet = { privateKey: string; address: string };

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * The watcher's keys (docs/wallet.md): the hot wallet's private key from HOT_WALLET_KEY_FILE, and
 * the extended public key the deposit addresses come from (WALLET_XPUB). In demo mode the demo's
 * test phrase stands in for an unset one; outside demo mode a missing one stops the watcher with
 * a message naming it.
 */
export const loadWatcherKeys = (env: Env): { hot: HotWallet; xpub: string } => {
  const problems: string[] = [];
  let privateKey: string | undefined;
  if (env.HOT_WALLET_KEY_FILE) {
    privateKey = readKeyFile(env.HOT_WALLET_KEY_FILE, problems);
  } else if (env.DEMO) {
    privateKey = demoHotWalletKey();
  } else {
    problems.push(
      "HOT_WALLET_KEY_FILE: required outside demo mode (a file holding the hot wallet's private key, hex, that signs withdrawals)",
    );
  }
  const xpub = env.WALLET_XPUB ?? (env.DEMO ? demoXpub() : undefined);
  if (!xpub) {
    problems.push("WALLET_XPUB: required outside demo mode (the extended public key of m/44'/195'/0')");
  }
  if (problems.length > 0 || !privateKey || !xpub) {
    throw new ConfigError(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return { hot: { privateKey, address: tronAddressOfPrivateKey(privateKey) }, xpub };
};

const readKeyFile = (file: string, problems: string[]): string | undefined => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    problems.push(
      `HOT_WALLET_KEY_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return undefined;
  }
  if (!PRIVATE_KEY.test(text)) {
    problems.push(`HOT_WALLET_KEY_FILE: ${file} does not hold a private key (64 hex characters)`);
    return undefined;
  }
  return text.replace(/^0x/, '').toLowerCase();
};

/**
 * Refuses to watch deposit addresses that are not children of the configured key: a wrong
 * WALLET_XPUB would credit deposits to addresses whose money the operator cannot reach. Checks the
 * first and last wallets by derivation index.
 */
export const checkWalletsMatchXpub = async (prisma: PrismaClient, xpub: string): Promise<void> => {
  const [first, last] = await Promise.all([
    prisma.wallet.findFirst({ orderBy: { derivationIndex: 'asc' } }),
    prisma.wallet.findFirst({ orderBy: { derivationIndex: 'desc' } }),
  ]);
  for (const wallet of [first, last]) {
    if (!wallet) continue;
    const derived = deriveDepositAddress(xpub, wallet.derivationIndex);
    if (derived !== wallet.depositAddress) {
      throw new ConfigError(
        `WALLET_XPUB: user ${wallet.userId}'s deposit address ${wallet.depositAddress} (index ${wallet.derivationIndex}) ` +
          `is not derived from this key (it gives ${derived}): set the key the wallets were created with`,
      );
    }
  }
};
