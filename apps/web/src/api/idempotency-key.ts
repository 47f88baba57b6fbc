import { useRef } from 'react';

/** 128 random bits as hex: `crypto.getRandomValues` works on plain-HTTP origins too (a LAN demo). */
const newKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );

/**
 * The `Idempotency-Key` of a money move (docs/wallet.md#retries): one key per action the user
 * confirms, sent again when the same action is sent again after a failure whose outcome the app
 * cannot know (a lost answer), so the money moves once. A success or a change of the inputs makes
 * the next action a new one.
 */
export const useIdempotencyKey = () => {
  const key = useRef<string | null>(null);
  return {
    headers: () => {
      key.current ??= newKey();
      return { 'idempotency-key': key.current };
    },
    renew: () => {
      key.current = null;
    },
  };
};
