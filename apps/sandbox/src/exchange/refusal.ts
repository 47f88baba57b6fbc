import { BinanceError, binanceErrors } from './binance-error';

/**
 * Why the shared core (markets, accounts, matching) refuses a request, in no venue's words: each
 * dialect says it with its own code and message (Binance in `binanceRefusal` below, Bybit in
 * bybit/bybit-error.ts, OKX in okx/okx-error.ts). docs/venues/README.md
 */
export type RefusalReason =
  | { kind: 'unknownSymbol' }
  | { kind: 'marketClosed' }
  | { kind: 'insufficientBalance' }
  | { kind: 'duplicateOrder' }
  /** A post-only (maker-only) order that would trade at once as a taker. */
  | { kind: 'wouldTake' }
  | { kind: 'unknownOrder' }
  | { kind: 'badInterval' }
  /** A limit price off the tick grid or outside the market's price range. */
  | { kind: 'price' }
  /** A quantity off the lot step or outside the market's quantity range. */
  | { kind: 'quantity' }
  /** An order worth less than the market's minimum order value. */
  | { kind: 'notional' }
  /** A limit price outside the band around the average price; `limit` is the bound it crossed. */
  | { kind: 'priceBand'; side: 'BUY' | 'SELL'; limit: string }
  /** More open orders on the market than it allows. */
  | { kind: 'maxOpenOrders' };

export class Refusal extends Error {
  override name = 'Refusal';

  constructor(readonly reason: RefusalReason) {
    super(reason.kind);
  }
}

export const refuse = (reason: RefusalReason): Refusal => new Refusal(reason);

/** The refusal in Binance's words (errors.md, filters.md). */
export const binanceRefusal = ({ reason }: Refusal): BinanceError => {
  switch (reason.kind) {
    case 'unknownSymbol':
      return binanceErrors.badSymbol();
    case 'marketClosed':
      return binanceErrors.marketClosed();
    case 'insufficientBalance':
      return binanceErrors.insufficientBalance();
    case 'duplicateOrder':
      return binanceErrors.duplicateOrder();
    case 'wouldTake':
      return binanceErrors.wouldTake();
    case 'unknownOrder':
      return binanceErrors.unknownOrder();
    case 'badInterval':
      return binanceErrors.badInterval();
    case 'price':
      return binanceErrors.filterFailure('PRICE_FILTER');
    case 'quantity':
      return binanceErrors.filterFailure('LOT_SIZE');
    case 'notional':
      return binanceErrors.filterFailure('NOTIONAL');
    case 'priceBand':
      return binanceErrors.filterFailure('PERCENT_PRICE_BY_SIDE');
    case 'maxOpenOrders':
      return binanceErrors.filterFailure('MAX_NUM_ORDERS');
  }
};

/** Any error a Binance route throws, as Binance would answer it (undefined: not a refusal). */
export const asBinanceError = (error: unknown): BinanceError | undefined => {
  if (error instanceof BinanceError) return error;
  if (error instanceof Refusal) return binanceRefusal(error);
  return undefined;
};
