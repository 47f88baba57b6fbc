import { z } from 'zod';

/**
 * One endpoint = one contract. The API registers routes from these objects and the web client
 * calls them through one typed fetch wrapper that parses every response with the same schema.
 */
export type HttpMethod = 'GET' | 'POST';

/** Server-side rate limit: at most `max` calls per `windowMs` per user (docs/product.md#limits). */
export type RateLimit = { max: number; windowMs: number };

export type EndpointDefinition = {
  /** Stable id, `<area>.<verbNoun>`; also the React Query key root. */
  id: string;
  method: HttpMethod;
  /** Fastify-style path (`/portfolio/:coin`), exactly the spec's path. */
  path: string;
  summary: string;
  tags: readonly string[];
  /** false only for the sign-in calls and the demo launch data. */
  auth: boolean;
  rateLimit?: RateLimit;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /**
   * Request headers the call reads (names lower-case). A loose object: the other headers of the
   * request (authorization, accept-language…) pass through untouched.
   */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The 2xx body. */
  response: z.ZodType;
  /**
   * Mutations only: ids of the read contracts whose answers this call changes. The web invalidates
   * exactly these after a success, so no screen lists cache keys of its own (docs/decisions.md).
   */
  invalidates?: readonly string[];
  /** Documented error statuses (each body is ZErrorBody) with what they mean. */
  errors: Readonly<Partial<Record<400 | 401 | 403 | 404 | 409 | 422 | 429 | 501 | 502 | 503, string>>>;
};

export const defineEndpoint = <const T extends EndpointDefinition>(definition: T): T => definition;

export type RequestOf<T extends EndpointDefinition> = {
  params: T['params'] extends z.ZodType ? z.input<T['params']> : undefined;
  query: T['query'] extends z.ZodType ? z.input<T['query']> : undefined;
  headers: T['headers'] extends z.ZodType ? z.input<T['headers']> : undefined;
  body: T['body'] extends z.ZodType ? z.input<T['body']> : undefined;
};
export type ResponseOf<T extends EndpointDefinition> = z.output<T['response']>;

// ---- shared field schemas -------------------------------------------------------------------

/** Any non-negative decimal amount as a string (exchange prices and quantities). Never a JS float. */
export const ZDecimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be a decimal number')
  .describe('decimal number as a string');

/** A signed decimal (PnL, price changes). */
export const ZSignedDecimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number')
  .describe('signed decimal number as a string');

/** USDT amount on the wire: up to 6 decimals (docs/security.md). */
export const ZUsdt = z
  .string()
  .regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal with at most 6 decimals')
  .describe('USDT amount as a decimal string, up to 6 decimals');

/** Signed USDT amount (credits positive, debits negative). */
export const ZSignedUsdt = z
  .string()
  .regex(/^-?\d+(\.\d{1,6})?$/, 'must be a decimal with at most 6 decimals')
  .describe('signed USDT amount as a decimal string');

/** Percent as a decimal string (1 = 1 %). */
export const ZPct = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number')
  .describe('percent as a decimal string, 1 = 1 %');

export const ZIsoDateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time');
/**
 * The first day a date may name. Nothing the product counts predates it, and PostgreSQL has no
 * year 0 (`0000-01-01` is an error there, not an empty answer).
 */
export const FIRST_DAY = '1970-01-01';
// Both formats compare as strings: `1969-12-31` < `1970-01-01`, `1969-12` < `1970-01`.
export const ZIsoDate = z.iso
  .date()
  .refine((day) => day >= FIRST_DAY, `must be ${FIRST_DAY} or later`)
  .describe('calendar date YYYY-MM-DD (UTC)');
/** A month period `YYYY-MM`. */
export const ZMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
  .refine((month) => month >= FIRST_DAY.slice(0, 7), `must be ${FIRST_DAY.slice(0, 7)} or later`)
  .describe('month YYYY-MM (UTC)');

/**
 * The largest id a request may name: ids are PostgreSQL `integer` columns, and a larger number
 * (2147483648, 9007199254740991) names nobody. Refused as input, not sent to a query that fails.
 */
export const MAX_ID = 2_147_483_647;
/** The largest `bigint` id (activity cursors). */
export const MAX_BIG_ID = 9_223_372_036_854_775_807n;

/** Public numeric user id shown to users (UID) — also the key of the partner tree. */
export const ZUid = z.coerce.number().int().positive().max(MAX_ID).describe('public user id (UID)');

/**
 * A UID in a query parameter, read strictly (docs/wallet.md#internal-transfer): decimal digits, no
 * sign, no leading zero, no spaces, up to MAX_ID. `z.coerce.number()` would take `0x186bc`, `1e5`,
 * `+100003`, `100003.0` and ` 100003` for real users' UIDs.
 */
export const ZUidParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'must be a UID: digits only, without sign, spaces or leading zeros')
  .transform(Number)
  .pipe(z.number().int().positive().max(MAX_ID))
  .describe('public user id (UID), decimal digits only');

/** A positive integer id in a response body (UID, coin bot id). Responses never coerce. */
export const ZIdInt = z.number().int().positive();

/**
 * On/off query switch (`?status=`): true/false, 1/0, on/off, any case. `z.coerce.boolean()` would
 * read "false" as true, hence the explicit list.
 */
export const ZSwitch = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'on', 'off']))
  .transform((value) => value === 'true' || value === '1' || value === 'on')
  .describe('on/off switch: true|false|1|0|on|off');

export const ZPage = z.coerce.number().int().min(1).max(10_000).default(1);
export const ZLimit = z.coerce.number().int().min(1).max(100).default(10);

/**
 * A load-more list's position (docs/decisions.md#lists-paged-by-cursor-issue-22): the `nextCursor`
 * of the previous page. The next page starts right after that page's last row, whatever arrived
 * at the top since, so no row is repeated or skipped. Opaque: only the server reads it; one that
 * is not a cursor of the list is a VALIDATION error.
 */
export const ZCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be the nextCursor of the previous page')
  .optional()
  .describe('nextCursor of the previous page (then page is not used); none: the first page, or page');

/** The answer's half of a cursor: where the next page starts, null on the last page. */
export const ZNextCursor = z.string().nullable().describe('cursor of the next page; null on the last page');

export const ZPaging = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: ZNextCursor,
});

/**
 * A load-more list: `page` and `total` as the spec has them, and `nextCursor`, the way to ask for
 * the next page that stays exact while new rows arrive at the top.
 */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: ZNextCursor,
  });

/**
 * `Idempotency-Key` of a money-moving call: the client picks a fresh random key per action the user
 * confirms and sends the same key again when it retries that action, so the money moves once
 * (docs/wallet.md#retries). Without it every request is a new one.
 */
export const ZIdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8-100 letters, digits or _.:-')
    .optional()
    .describe('the same key on a retried request moves the money once'),
});

/** Generic acknowledgement used by action calls that return nothing else. */
export const ZOk = z.object({ ok: z.literal(true), message: z.string().optional() });

/** Language codes of the product (docs/product.md#features, §9). */
export const ZLanguage = z.enum(['en', 'ru', 'cn']);
export type Language = z.infer<typeof ZLanguage>;

/**
 * Every error body. `message` is the stable server message of the spec's catalogue (the client maps
 * it to its text), `detail` is a human sentence in the user's language, `code` is stable for code.
 */
export const ZErrorBody = z.object({
  error: z.literal(true),
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  detail: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** The instant the detail's "until" names (a locked address, a freeze), ISO 8601. */
  until: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ZErrorBody>;

// ---- decimal bounds without floats ------------------------------------------------------------

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Compares two decimal strings exactly (-1, 0, 1); both must match `^-?\d+(\.\d+)?$`. */
export const compareDecimal = (a: string, b: string): -1 | 0 | 1 => {
  const [aInt = '0', aFrac = ''] = a.split('.');
  const [bInt = '0', bFrac = ''] = b.split('.');
  const scale = Math.max(aFrac.length, bFrac.length);
  const scaled = (int: string, frac: string) => BigInt(int + frac.padEnd(scale, '0'));
  const x = scaled(aInt, aFrac);
  const y = scaled(bInt, bFrac);
  if (x === y) return 0;
  return x < y ? -1 : 1;
};

/** `params` of a bound's issue, so a client can say "at least 11" in its own language. */
export type DecimalBoundParams = { bound: 'min' | 'max'; value: string };

/**
 * Adds inclusive bounds to a decimal-string schema. Values that are not decimals are left to the
 * base schema's own format message.
 */
export const boundedDecimal = <T extends z.ZodString>(base: T, bounds: { min?: string; max?: string }) => {
  const { min, max } = bounds;
  return base
    .refine((value) => min === undefined || !DECIMAL.test(value) || compareDecimal(value, min) >= 0, {
      message: `must be at least ${min}`,
      params: { bound: 'min', value: min } satisfies Partial<DecimalBoundParams>,
    })
    .refine((value) => max === undefined || !DECIMAL.test(value) || compareDecimal(value, max) <= 0, {
      message: `must be at most ${max}`,
      params: { bound: 'max', value: max } satisfies Partial<DecimalBoundParams>,
    });
};
