import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export type SealedSecret = { cipher: Uint8Array<ArrayBuffer>; iv: Uint8Array<ArrayBuffer>; keyId: string };

const TAG_BYTES = 16;

/** Id of a master key: lets records say which key sealed them (rotation keeps old keys readable). */
export const masterKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

/**
 * AES-256-GCM for exchange secrets at rest (docs/security.md). The additional data binds a record to its
 * owner ("<userId>:<exchange>"), so a ciphertext copied to another user's row does not open.
 */
export const createSecretBox = (keys: Buffer[]) => {
  const [current] = keys;
  if (!current || keys.some((k) => k.length !== 32)) throw new Error('secret keys must be 32 bytes');
  const byId = new Map(keys.map((k) => [masterKeyId(k), k]));
  return {
    seal: (plaintext: string, additionalData: string): SealedSecret => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(additionalData));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return { cipher: new Uint8Array(body), iv: new Uint8Array(iv), keyId: masterKeyId(current) };
    },
    open: (sealed: { cipher: Uint8Array; iv: Uint8Array; keyId: string }, additionalData: string): string => {
      const key = byId.get(sealed.keyId);
      if (!key) throw new Error(`unknown secret key id ${sealed.keyId}`);
      const body = Buffer.from(sealed.cipher);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv));
      decipher.setAAD(Buffer.from(additionalData));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(body.subarray(0, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
};

export type SecretBox = ReturnType<typeof createSecretBox>;

/** Parses SECRETS_KEY: comma-separated 32-byte keys, hex (64 chars) or base64; first = current. */
export const parseSecretKeys = (value: string): Buffer[] =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (/^[0-9a-f]{64}$/i.test(part) ? Buffer.from(part, 'hex') : Buffer.from(part, 'base64')));

/** Masks an API key for display: first 4 and last 4 characters. */
export const maskKey = (key: string) => (key.length <= 8 ? '••••' : `${key.slice(0, 4)}••••${key.slice(-4)}`);
