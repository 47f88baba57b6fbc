import { readFileSync } from 'node:fs';
import { ConfigError, type Env } from '@gridbot/config';
import { utils as tron } from 'tronweb';
import {
  DEMO_MNEMONIC,
  demoXpub,
  deriveDepositAddress,
  TRON_ACCOUNT_PATH,
  tronAddressOfPrivateKey,
} from '../tron-keys';

const HD = tron.ethersUtils.ethersHDNodeWallet;

/** The deposit addresses' private keys, derived on demand inside the sweeper only. */
export type DepositKeys = {
  /** The private key (hex) of m/44'/195'/0'/0/index; throws unless it derives `address`. */
  keyFor(index: number, address: string): string;
};

type AccountNode = ReturnType<typeof HD.fromPhrase>;

/**
 * The sweeper's keys (docs/wallet.md#sweeps): the account node m/44'/195'/0' from the file
 * SWEEP_SEED_FILE — a BIP-39 mnemonic, or that node's xprv — which must be the private side of
 * WALLET_XPUB (its first addresses are compared). Only the sweeper calls this: the API and the
 * other processes never open the file. In demo mode without a file the demo's test phrase stands
 * in; elsewhere without one there is no sweeper (undefined). A key is derived only for a sweep,
 * and only after checking it gives that wallet's deposit address.
 */
export const loadDepositKeys = (env: Env): DepositKeys | undefined => {
  const xpub = env.WALLET_XPUB ?? (env.DEMO ? demoXpub() : undefined);
  let account: AccountNode;
  if (env.SWEEP_SEED_FILE) {
    account = accountNodeOf(readSeedFile(env.SWEEP_SEED_FILE));
  } else if (env.DEMO) {
    account = HD.fromPhrase(DEMO_MNEMONIC, undefined, TRON_ACCOUNT_PATH);
  } else {
    return undefined;
  }
  if (!xpub)
    throw new ConfigError(
      "WALLET_XPUB: required with SWEEP_SEED_FILE (the extended public key of m/44'/195'/0')",
    );
  for (const index of [0, 1]) {
    const derived = tronAddressOfPrivateKey(account.deriveChild(0).deriveChild(index).privateKey);
    if (derived !== deriveDepositAddress(xpub, index)) {
      throw new ConfigError(
        "SWEEP_SEED_FILE: its keys are not those of WALLET_XPUB (m/44'/195'/0'/0/" +
          `${index} gives ${derived}, WALLET_XPUB ${deriveDepositAddress(xpub, index)})`,
      );
    }
  }
  return {
    keyFor: (index, address) => {
      const key = account.deriveChild(0).deriveChild(index).privateKey.slice(2);
      const derived = tronAddressOfPrivateKey(key);
      if (derived !== address) {
        throw new ConfigError(
          `deposit key ${index} gives ${derived}, not the wallet's address ${address}: nothing signed`,
        );
      }
      return key;
    },
  };
};

const readSeedFile = (file: string): string => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(
      `SWEEP_SEED_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
};

/** m/44'/195'/0' of a mnemonic, or the node an xprv of that depth is. */
const accountNodeOf = (secret: string): AccountNode => {
  if (/^[xt]prv[1-9A-HJ-NP-Za-km-z]{100,112}$/.test(secret)) {
    const node = HD.fromExtendedKey(secret);
    if (!('privateKey' in node) || node.depth !== 3) {
      throw new ConfigError("SWEEP_SEED_FILE: the xprv must be the account node m/44'/195'/0' (depth 3)");
    }
    return node as AccountNode;
  }
  const words = secret.split(/\s+/);
  if (![12, 15, 18, 21, 24].includes(words.length)) {
    throw new ConfigError("SWEEP_SEED_FILE: neither a mnemonic (12–24 words) nor the xprv of m/44'/195'/0'");
  }
  try {
    return HD.fromPhrase(words.join(' '), undefined, TRON_ACCOUNT_PATH);
  } catch {
    throw new ConfigError('SWEEP_SEED_FILE: not a valid BIP-39 mnemonic (a word or the checksum is wrong)');
  }
};
