import { createHash } from 'node:crypto';
import type { OrderSide } from './types';

/** Binance's newClientOrderId alphabet, narrowed to what every exchange we target accepts. */
const CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{1,36}$/;

export const isValidClientOrderId = (id: string): boolean => CLIENT_ORDER_ID.test(id);

export type ClientOrderIdParts = {
  coinBotId: string | number | bigint;
  /** Sequence number of the lot the order opens (buy) or closes (sell). */
  lotSeq: number;
  side: OrderSide;
  /** Bumped only after the previous attempt is known dead (rejected, or cancelled and replaced). */
  attempt: number;
};

const nonNegativeInteger = (name: string, value: number): string => {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value.toString(36);
};

/**
 * The deterministic client order id of one order: `gb_<16 hex of sha256(coinBotId)>_<lot>_<b|s>_<attempt>`
 * (lot and attempt in base 36), at most 36 characters of [A-Za-z0-9_-]. The same inputs always give
 * the same id, which is what lets a retry find the order a lost response created.
 */
export const clientOrderIdFor = (parts: ClientOrderIdParts): string => {
  const bot = createHash('sha256').update(String(parts.coinBotId)).digest('hex').slice(0, 16);
  const lot = nonNegativeInteger('lotSeq', parts.lotSeq);
  const attempt = nonNegativeInteger('attempt', parts.attempt);
  const id = `gb_${bot}_${lot}_${parts.side === 'buy' ? 'b' : 's'}_${attempt}`;
  if (!isValidClientOrderId(id)) throw new Error(`client order id ${id} is too long`);
  return id;
};

/** Reads the parts back (for logs and restart recovery); null for ids we did not make. */
export const parseClientOrderId = (
  id: string,
): { botHash: string; lotSeq: number; side: OrderSide; attempt: number } | null => {
  const match = /^gb_([0-9a-f]{16})_([0-9a-z]+)_([bs])_([0-9a-z]+)$/.exec(id);
  if (!match) return null;
  return {
    botHash: match[1]!,
    lotSeq: Number.parseInt(match[2]!, 36),
    side: match[3] === 'b' ? 'buy' : 'sell',
    attempt: Number.parseInt(match[4]!, 36),
  };
};
