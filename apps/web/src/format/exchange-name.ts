import type { Exchange } from '@gridbot/contracts';

/** Each exchange's own name (the same in every language). */
export const EXCHANGE_NAMES: Record<Exchange, string> = { binance: 'Binance', bybit: 'Bybit', okx: 'OKX' };

/** The exchanges a user can connect, in the order the screens offer them. */
export const EXCHANGES = Object.keys(EXCHANGE_NAMES) as readonly Exchange[];

export const isExchange = (value: unknown): value is Exchange =>
  typeof value === 'string' && (EXCHANGES as readonly string[]).includes(value);

/** Whether these coin bots trade on more than one exchange (then each says which). */
export const onSeveralExchanges = (coins: readonly { exchange: Exchange }[]) =>
  new Set(coins.map((c) => c.exchange)).size > 1;
