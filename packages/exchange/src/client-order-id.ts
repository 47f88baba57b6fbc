import { createHash } from 'node:crypto';
import { venueSpec } from '@gridbot/venues';
import type { OrderSide } from './types';

/**
 * What every venue we trade on accepts as a client order id (docs/venues/README.md): letters and
 * digits only, at most 32 — OKX's `clOrdId` rule (docs/venues/okx.md#client-order-ids), which is
 * inside Binance's `newClientOrderId` (≤ 36 of `[.A-Z:/a-z0-9_-]`) and Bybit's `orderLinkId`
 * (≤ 36 of letters, digits, `-` and `_`). The venue tables' suite checks our ids against each rule.
 */
const CLIENT_ORDER_ID = /^[A-Za-z0-9]{1,32}$/;

export const isValidClientOrderId = (id: string): boolean => CLIENT_ORDER_ID.test(id);

/** Whether `venue` (a ccxt id) takes `id`: by the venue's own rule where we have its table, else ours. */
export const venueAcceptsClientOrderId = (venue: string, id: string): boolean =>
  (venueSpec(venue)?.clientOrderId.pattern ?? CLIENT_ORDER_ID).test(id);

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
 * The deterministic client order id of one order: `gb<16 hex of sha256(coinBotId)><B|S><lot>N<attempt>`
 * (lot and attempt in base 36, lower case, so the upper-case side and `N` separate them), at most 32
 * letters and digits. The same inputs always give the same id, which is what lets a retry find the
 * order a lost response created.
 */
export const clientOrderIdFor = (parts: ClientOrderIdParts): string => {
  const bot = createHash('sha256').update(String(parts.coinBotId)).digest('hex').slice(0, 16);
  const lot = nonNegativeInteger('lotSeq', parts.lotSeq);
  const attempt = nonNegativeInteger('attempt', parts.attempt);
  const id = `gb${bot}${parts.side === 'buy' ? 'B' : 'S'}${lot}N${attempt}`;
  if (!isValidClientOrderId(id)) throw new Error(`client order id ${id} is too long`);
  return id;
};

const CURRENT = /^gb([0-9a-f]{16})([BS])([0-9a-z]+)N([0-9a-z]+)$/;
/** Ids made before 2026-11-28 (`gb_<hash>_<lot>_<b|s>_<attempt>`), still on books and in our records. */
const EARLIER = /^gb_([0-9a-f]{16})_([0-9a-z]+)_([bs])_([0-9a-z]+)$/;

/** Reads the parts back (for logs and restart recovery), of either format; null for ids we did not make. */
export const parseClientOrderId = (
  id: string,
): { botHash: string; lotSeq: number; side: OrderSide; attempt: number } | null => {
  const current = CURRENT.exec(id);
  const earlier = current ? null : EARLIER.exec(id);
  const [hash, side, lot, attempt] = current
    ? [current[1], current[2] === 'B' ? 'buy' : 'sell', current[3], current[4]]
    : earlier
      ? [earlier[1], earlier[3] === 'b' ? 'buy' : 'sell', earlier[2], earlier[4]]
      : [];
  if (!hash || !lot || !attempt) return null;
  return {
    botHash: hash,
    lotSeq: Number.parseInt(lot, 36),
    side: side as OrderSide,
    attempt: Number.parseInt(attempt, 36),
  };
};
