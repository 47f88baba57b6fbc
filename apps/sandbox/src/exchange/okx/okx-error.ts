import { okx } from '@gridbot/venues';
import { Refusal } from '../refusal';

/**
 * An OKX v5 refusal: `code` and `msg` in the common envelope with the HTTP status of OKX's error
 * table. Codes and words come from the venue table, never typed here. docs/venues/okx.md#errors
 */
export class OkxError extends Error {
  override name = 'OkxError';

  constructor(
    readonly code: string,
    readonly msg: string,
    readonly httpStatus = 200,
  ) {
    super(msg);
  }
}

/** The table's code with its documented message, `{param0}`, `{param1}` … filled from `args`. */
export const okxError = (code: string, ...args: string[]): OkxError => {
  const entry = okx.errors.codes[code];
  if (!entry) throw new Error(`OKX code ${code} is not in the venue table`);
  const message = entry.message.replace(/\{param(\d+)\}/g, (_all, i: string) => args[Number(i)] ?? '');
  return new OkxError(code, message, entry.status);
};

/** OKX's common envelope (Overview › General info): `code` "0" on success, `data` always a list. */
export const envelope = (code: string, msg: string, data: unknown) => ({ code, msg, data });

/**
 * A refusal of the shared core in OKX's words (docs/venues/okx.md#errors, #filters). `asset` names
 * the coin an order would spend (51008 says which balance is short).
 */
export const okxRefusal = ({ reason }: Refusal, asset = ''): OkxError => {
  switch (reason.kind) {
    case 'unknownSymbol':
      return okxError('51001');
    case 'marketClosed':
      return okxError('51022');
    case 'insufficientBalance':
      return okxError('51008', asset);
    case 'duplicateOrder':
      return okxError('51016');
    case 'wouldTake':
      // Our choice: OKX's table has no code for a post-only order that would take (see
      // docs/venues/okx.md#what-we-could-not-verify); a parameter error on ordType.
      return okxError('51000', 'ordType');
    case 'unknownOrder':
      return okxError('51603');
    case 'notional':
      return okxError('51020');
    case 'quantity':
      return okxError('51121');
    case 'price':
      return okxError('51000', 'px');
    case 'maxOpenOrders':
      return okxError('51174', '', String(okx.defaultMaxOpenOrdersPerSymbol));
    case 'priceBand':
      return reason.side === 'BUY' ? okxError('51137', reason.limit) : okxError('51138', reason.limit);
    case 'badInterval':
      return okxError('51000', 'bar');
  }
};

/** Any error an OKX route throws, as OKX would answer it. */
export const asOkxError = (error: unknown): OkxError | undefined => {
  if (error instanceof OkxError) return error;
  if (error instanceof Refusal) return okxRefusal(error);
  return undefined;
};
