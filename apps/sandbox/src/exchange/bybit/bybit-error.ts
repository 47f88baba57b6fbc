import { bybit } from '@gridbot/venues';
import { BinanceError } from '../binance-error';

/**
 * A Bybit v5 refusal: `retCode` and `retMsg` in the common envelope, with the HTTP status Bybit
 * sends (200 for every code we answer). Codes and words come from the venue table, never typed
 * here. docs/venues/bybit.md#errors
 */
export class BybitError extends Error {
  override name = 'BybitError';

  constructor(
    readonly retCode: number,
    readonly retMsg: string,
    readonly httpStatus = 200,
  ) {
    super(retMsg);
  }
}

/** The table's code with its documented message (`%s` filled in order from `args`). */
export const bybitError = (code: string, ...args: string[]): BybitError => {
  const entry = bybit.errors.codes[code];
  if (!entry) throw new Error(`Bybit code ${code} is not in the venue table`);
  let i = 0;
  const message = entry.message.replace(/%s/g, () => args[i++] ?? '');
  return new BybitError(Number(code), message, entry.status);
};

/** Bybit's common envelope (guide.mdx "Common response parameters"). */
export const envelope = (retCode: number, retMsg: string, result: unknown, now: number) => ({
  retCode,
  retMsg,
  result,
  retExtInfo: {},
  time: now,
});

/**
 * The shared core (markets, accounts, matching) refuses in Binance's words; the Bybit dialect
 * answers the same refusal with Bybit's code for it (docs/venues/bybit.md#errors). `band` gives a
 * price outside the allowed band its code by side and the limit it crossed.
 */
export const fromCore = (error: BinanceError, band?: { side: 'BUY' | 'SELL'; limit: string }): BybitError => {
  switch (error.msg) {
    case 'Invalid symbol.':
      return bybitError('170121');
    case 'Market is closed.':
      return bybitError('170157');
    case 'Account has insufficient balance for requested action.':
      return bybitError('170131');
    case 'Duplicate order sent.':
      return bybitError('170141');
    case 'Order would immediately match and take.':
      return bybitError('170218');
    case 'Unknown order sent.':
    case 'Order does not exist.':
      return bybitError('170213');
    case 'Filter failure: NOTIONAL':
      return bybitError('170140');
    case 'Filter failure: LOT_SIZE':
      return bybitError('170136');
    case 'Filter failure: PRICE_FILTER':
      return bybitError('170134');
    case 'Filter failure: MAX_NUM_ORDERS':
      return bybitError('170810');
    case 'Filter failure: PERCENT_PRICE_BY_SIDE':
      return band?.side === 'SELL'
        ? bybitError('170194', band.limit)
        : bybitError('170193', band?.limit ?? '');
    default:
      return bybitError('10001');
  }
};

/** Any error a Bybit route throws, as Bybit would answer it. */
export const asBybitError = (error: unknown): BybitError | undefined => {
  if (error instanceof BybitError) return error;
  if (error instanceof BinanceError) return fromCore(error);
  return undefined;
};
