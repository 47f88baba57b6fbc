import { bybit } from '@gridbot/venues';
import { Refusal } from '../refusal';

/**
 * A Bybit v5 refusal: `retCode` and `retMsg` in the common envelope, with the HTTP status Bybit
 * sends (the table's status: 200, or 401 for an invalid key). Codes and words come from the venue table, never typed
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

/** A refusal of the shared core in Bybit's words (docs/venues/bybit.md#errors). */
export const bybitRefusal = ({ reason }: Refusal): BybitError => {
  switch (reason.kind) {
    case 'unknownSymbol':
      return bybitError('170121');
    case 'marketClosed':
      return bybitError('170157');
    case 'insufficientBalance':
      return bybitError('170131');
    case 'duplicateOrder':
      return bybitError('170141');
    case 'wouldTake':
      return bybitError('170218');
    case 'unknownOrder':
      return bybitError('170213');
    case 'notional':
      return bybitError('170140');
    case 'quantity':
      return bybitError('170136');
    case 'price':
      return bybitError('170134');
    case 'maxOpenOrders':
      return bybitError('170810');
    case 'priceBand':
      return reason.side === 'SELL' ? bybitError('170194', reason.limit) : bybitError('170193', reason.limit);
    case 'badInterval':
      return bybitError('10001');
  }
};

/** Any error a Bybit route throws, as Bybit would answer it. */
export const asBybitError = (error: unknown): BybitError | undefined => {
  if (error instanceof BybitError) return error;
  if (error instanceof Refusal) return bybitRefusal(error);
  return undefined;
};
