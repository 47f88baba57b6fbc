import type { Exchange } from 'ccxt';
import { Decimal } from 'decimal.js';
import { ExchangeError, toExchangeError } from './errors';
import { ccxtAmount } from './normalize';
import type { MarketInfo } from './types';

/**
 * Market-precision rounding, always through ccxt (the exchange's own rules: tick size for prices,
 * rounded to the nearest tick; lot step for amounts, truncated). Results are decimal strings.
 */
export const priceToPrecision = (exchange: Exchange, symbol: string, price: Decimal | string): string => {
  try {
    return String(exchange.priceToPrecision(symbol, ccxtAmount(price)));
  } catch (error) {
    throw belowMinimum(error, `price ${price} is below one tick of ${symbol}`);
  }
};

export const amountToPrecision = (exchange: Exchange, symbol: string, amount: Decimal | string): string => {
  try {
    return String(exchange.amountToPrecision(symbol, ccxtAmount(amount)));
  } catch (error) {
    throw belowMinimum(error, `amount ${amount} is below one lot step of ${symbol}`);
  }
};

/** The base amount `quoteAmount` buys at `price`, truncated to the lot step. */
export const amountForQuote = (
  exchange: Exchange,
  symbol: string,
  quoteAmount: Decimal | string,
  price: Decimal | string,
): string => amountToPrecision(exchange, symbol, new Decimal(quoteAmount).div(price));

export type MinimumViolation = 'MIN_QTY' | 'MIN_NOTIONAL';

/** Would the exchange refuse this order for its size? (LOT_SIZE minQty and NOTIONAL minNotional.) */
export const minimumViolation = (
  market: MarketInfo,
  price: Decimal | string,
  amount: Decimal | string,
): MinimumViolation | null => {
  const qty = new Decimal(amount);
  if (market.minQty && qty.lt(market.minQty)) return 'MIN_QTY';
  if (market.minNotional && qty.mul(price).lt(market.minNotional)) return 'MIN_NOTIONAL';
  return null;
};

/**
 * The smallest order value the market takes, in quote: its minimum notional (Binance NOTIONAL,
 * Bybit minOrderAmt); on a venue that lists only a minimum quantity (OKX `minSz`,
 * docs/venues/okx.md) that quantity at `price`. Null when neither is known.
 */
export const minimumOrderValue = (market: MarketInfo, price: Decimal | null): Decimal | null => {
  if (market.minNotional) return market.minNotional;
  if (market.minQty && price?.gt(0)) return market.minQty.mul(price);
  return null;
};

const belowMinimum = (error: unknown, message: string): ExchangeError => {
  const mapped = toExchangeError(error);
  return mapped.code === 'ORDER_REJECTED'
    ? new ExchangeError('ORDER_BELOW_EXCHANGE_MIN', message, { cause: error })
    : mapped;
};
