import type { Exchange } from '@gridbot/contracts';

/** Each exchange's own name (the same in every language). */
export const EXCHANGE_NAMES: Record<Exchange, string> = { binance: 'Binance', bybit: 'Bybit', okx: 'OKX' };

const EXCHANGES = new Set<string>(Object.keys(EXCHANGE_NAMES));

export const isExchange = (value: unknown): value is Exchange =>
  typeof value === 'string' && EXCHANGES.has(value);

/** Whether these coin bots trade on more than one exchange (then each says which). */
export const onSeveralExchanges = (coins: readonly { exchange: Exchange }[]) =>
  new Set(coins.map((c) => c.exchange)).size > 1;
