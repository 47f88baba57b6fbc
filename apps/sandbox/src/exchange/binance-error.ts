/**
 * A Binance API error: `{ code, msg }` with the HTTP status Binance uses for it. Codes and messages
 * are Binance's own, because ccxt (and our adapter) recognise errors by them.
 */
export class BinanceError extends Error {
  override name = 'BinanceError';

  constructor(
    readonly code: number,
    readonly msg: string,
    readonly httpStatus = 400,
  ) {
    super(msg);
  }

  toJSON(): { code: number; msg: string } {
    return { code: this.code, msg: this.msg };
  }
}

export const binanceErrors = {
  /** Binance answers 401 for every API-key problem. */
  apiKeyFormat: () => new BinanceError(-2014, 'API-key format invalid.', 401),
  apiKeyRejected: () => new BinanceError(-2015, 'Invalid API-key, IP, or permissions for action.', 401),
  /** An API key Binance does not know, on its /sapi endpoints (/api/v3 answers -2015 for it). */
  apiKeyUnknown: () => new BinanceError(-2008, 'Invalid Api-Key ID.', 401),
  badSignature: () => new BinanceError(-1022, 'Signature for this request is not valid.'),
  timestampAhead: () =>
    new BinanceError(-1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  timestampOutside: () => new BinanceError(-1021, 'Timestamp for this request is outside of the recvWindow.'),
  recvWindowTooLarge: () => new BinanceError(-1131, 'recvWindow must be less than 60000'),
  mandatory: (name: string) =>
    new BinanceError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  eitherParam: (a: string, b: string) =>
    new BinanceError(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  notRequired: (name: string) => new BinanceError(-1106, `Parameter '${name}' sent when not required.`),
  duplicateParam: () => new BinanceError(-1101, 'Duplicate values for a parameter detected.'),
  paramsInQueryAndBody: () =>
    new BinanceError(
      -1101,
      'Parameters were sent in both the query string and the request body; send them all in one of the two.',
    ),
  rangeTooLong: () => new BinanceError(-1127, 'More than 24 hours between startTime and endTime.'),
  badSymbol: () => new BinanceError(-1121, 'Invalid symbol.'),
  badSide: () => new BinanceError(-1117, 'Invalid side.'),
  badOrderType: () => new BinanceError(-1116, 'Invalid orderType.'),
  badTimeInForce: () => new BinanceError(-1115, 'Invalid timeInForce.'),
  badInterval: () => new BinanceError(-1120, 'Invalid interval.'),
  illegalChars: (name: string, range: string) =>
    new BinanceError(-1100, `Illegal characters found in parameter '${name}'; legal range is '${range}'.`),
  filterFailure: (filter: string) => new BinanceError(-1013, `Filter failure: ${filter}`),
  /** A new order on a symbol that is not TRADING (errors.md#other-errors). */
  marketClosed: () => new BinanceError(-2010, 'Market is closed.'),
  insufficientBalance: () =>
    new BinanceError(-2010, 'Account has insufficient balance for requested action.'),
  duplicateOrder: () => new BinanceError(-2010, 'Duplicate order sent.'),
  /** errors.md "Messages for -2010": a LIMIT_MAKER order that would trade as a taker. */
  wouldTake: () => new BinanceError(-2010, 'Order would immediately match and take.'),
  unknownOrder: () => new BinanceError(-2011, 'Unknown order sent.'),
  orderDoesNotExist: () => new BinanceError(-2013, 'Order does not exist.'),
  /** What Binance says when an order's fate is unknown (HTTP 5xx, "execution status unknown"). */
  executionUnknown: () =>
    new BinanceError(
      -1007,
      'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
      503,
    ),
  // errors.md: one subscription per account and connection, 1,000 active, 65,535 over its life.
  subscriptionActive: () => new BinanceError(-2035, 'User Data Stream subscription already active.'),
  tooManySubscriptions: (limit: number) =>
    new BinanceError(
      -1191,
      `Too many subscriptions. Connection may create up to '${limit}' subscriptions at a time.`,
    ),
  maximumSubscriptionIds: () =>
    new BinanceError(-2042, 'Maximum subscription ID reached for this connection.'),
  listenKeyUnknown: () => new BinanceError(-1125, 'This listenKey does not exist.'),
  notFound: () => new BinanceError(-1000, 'Not found.', 404),
} as const;
