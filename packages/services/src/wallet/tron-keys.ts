import { utils as tron } from 'tronweb';

/**
 * TRON addresses and keys (docs/wallet.md#deposits). Deposit addresses are the children 0/i of the
 * operator's extended public key of m/44'/195'/0' (BIP-44, coin type 195 = TRON): no private key is
 * needed to derive them, so the api and watcher hosts hold none. A TRON address is 0x41 followed by
 * the last 20 bytes of keccak256 of the uncompressed public key, in base58check (34 characters, T…).
 */

const HD = tron.ethersUtils.ethersHDNodeWallet;

/** The test phrase of the embedded demo and tests (BIP-39's all-"abandon" vector): never real money. */
export const DEMO_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
/** The account-level path whose extended public key the operator configures (WALLET_XPUB). */
export const TRON_ACCOUNT_PATH = "m/44'/195'/0'";
/** The demo's hot wallet (pays withdrawals): another account of the demo phrase. */
const DEMO_HOT_WALLET_PATH = "m/44'/195'/1'/0/0";

/** The demo's extended public key (used when WALLET_XPUB is not set, in demo mode and tests only). */
export const demoXpub = (): string =>
  HD.fromPhrase(DEMO_MNEMONIC, undefined, TRON_ACCOUNT_PATH).neuter().extendedKey;

/** The demo's hot-wallet private key (hex, no 0x), in demo mode and tests only. */
export const demoHotWalletKey = (): string =>
  HD.fromPhrase(DEMO_MNEMONIC, undefined, DEMO_HOT_WALLET_PATH).privateKey.slice(2);

/** Private key of the demo deposit address i (tests "own" user addresses to check derivation). */
export const demoDepositKey = (index: number): string =>
  HD.fromPhrase(DEMO_MNEMONIC, undefined, `${TRON_ACCOUNT_PATH}/0/${index}`).privateKey.slice(2);

/** Base58 TRON address of a compressed or uncompressed secp256k1 public key (hex, 0x optional). */
export const tronAddressOfPublicKey = (publicKeyHex: string): string => {
  const uncompressed = tron.ethersUtils.SigningKey.computePublicKey(
    publicKeyHex.startsWith('0x') ? publicKeyHex : `0x${publicKeyHex}`,
    false,
  );
  const bytes = Buffer.from(uncompressed.slice(2), 'hex');
  return tron.crypto.getBase58CheckAddress(tron.crypto.computeAddress(bytes));
};

/** The deposit address m/…/0/index under an account-level extended public key. */
export const deriveDepositAddress = (xpub: string, index: number): string => {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
    throw new RangeError(`Derivation index out of range: ${index}`);
  }
  const child = HD.fromExtendedKey(xpub).deriveChild(0).deriveChild(index);
  return tronAddressOfPublicKey(child.publicKey);
};

/** Address of a private key (hex, 0x optional). */
export const tronAddressOfPrivateKey = (privateKeyHex: string): string =>
  tron.address.fromPrivateKey(privateKeyHex.replace(/^0x/, '')) as string;

const BASE58_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/**
 * A valid TRON account address: 34 base58 characters whose decoding is 21 bytes starting 0x41 and
 * whose 4-byte checksum (double SHA-256) matches. Anything else is refused.
 */
export const isTronAddress = (value: string): boolean => {
  if (!BASE58_ADDRESS.test(value)) return false;
  const bytes = tron.crypto.decode58Check(value);
  return Array.isArray(bytes) && bytes.length === 21 && bytes[0] === 0x41;
};

/** Hex form (41…) of a base58 address, as the node's JSON API writes owner/contract addresses. */
export const tronHexOf = (address: string): string => (tron.address.toHex(address) as string).toLowerCase();

/** Base58 form of a hex address (41… or 0x…, or the 20-byte EVM form used in TRC20 event topics). */
export const tronBase58Of = (hex: string): string => {
  const bare = hex.replace(/^0x/, '').toLowerCase();
  const full = bare.length === 40 ? `41${bare}` : bare;
  return tron.address.fromHex(full) as string;
};
