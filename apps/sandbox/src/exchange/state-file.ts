import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SYMBOL_STATUSES } from './markets';
import type { SandboxExchange, SavedExchange } from './sandbox-exchange';

/** What the file says it is; a file of another format or version is refused, never guessed at. */
export const STATE_FORMAT = 'gridbot-sandbox-exchange';
export const STATE_VERSION = 1;

/** The state file exists but cannot be used (damaged, another version, not ours). */
export class SandboxStateError extends Error {
  readonly code = 'SANDBOX_STATE_UNUSABLE';
  /** The message is the whole story for the operator (runMain prints it without a stack). */
  readonly operatorMessage = true;

  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `sandbox exchange state ${file} cannot be used: ${reason}. Move the file away to start the ` +
        'sandbox exchange afresh (its accounts, orders and balances are then gone).',
    );
    this.name = 'SandboxStateError';
  }
}

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal string');
const id = z.number().int().positive();
const side = z.enum(['BUY', 'SELL']);

const ZSavedExchange = z.object({
  accounts: z.object({
    nextId: id,
    accounts: z.array(
      z.object({
        id,
        updatedAt: z.number(),
        holdings: z.record(z.string(), z.object({ free: decimal, locked: decimal })),
        bnbBurn: z.boolean().optional(),
      }),
    ),
    keys: z.array(
      z.object({
        apiKey: z.string().min(1),
        secret: z.string().min(1),
        passphrase: z.string().min(1).optional(),
        accountId: id,
        permissions: z.object({ spot: z.boolean(), withdrawals: z.boolean() }),
        createdAt: z.number(),
        ipWhitelist: z.array(z.string()).optional(),
        tradingExpiresAt: z.number().nullable().optional(),
      }),
    ),
  }),
  engine: z.object({
    nextOrderId: id,
    nextTradeId: id,
    orders: z.array(
      z.object({
        accountId: id,
        symbol: z.string(),
        orderId: id,
        clientOrderId: z.string(),
        side,
        type: z.enum(['LIMIT', 'LIMIT_MAKER', 'MARKET']),
        timeInForce: z.enum(['GTC', 'IOC', 'FOK']).optional(),
        price: decimal,
        origQty: decimal,
        origQuoteOrderQty: decimal,
        executedQty: decimal,
        cummulativeQuoteQty: decimal,
        status: z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED']),
        time: z.number(),
        updateTime: z.number(),
        locked: decimal,
      }),
    ),
    trades: z.array(
      z.object({
        id,
        accountId: id,
        symbol: z.string(),
        orderId: id,
        price: decimal,
        qty: decimal,
        quoteQty: decimal,
        commission: decimal,
        commissionAsset: z.string(),
        time: z.number(),
        isBuyer: z.boolean(),
        isMaker: z.boolean(),
      }),
    ),
  }),
  markets: z.array(
    z.object({
      symbol: z.string(),
      price: decimal,
      feed: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('fixed') }),
        z.object({ kind: z.literal('random-walk'), price: decimal, rng: z.number().int().nonnegative() }),
        z.object({ kind: z.literal('candles'), index: z.number().int().nonnegative(), scale: decimal }),
      ]),
      /** Where a replayed market's past ends (absent in files written before the past existed). */
      pastEnd: z.number().int().nonnegative().optional(),
      /** Set through the control API (absent in files written before it could: as configured). */
      status: z.enum(SYMBOL_STATUSES).optional(),
      filters: z
        .object({ tickSize: decimal, stepSize: decimal, minQty: decimal, minNotional: decimal })
        .optional(),
      delisted: z.boolean().optional(),
      history: z.array(
        z.object({
          openTime: z.number(),
          open: decimal,
          high: decimal,
          low: decimal,
          close: decimal,
          volume: decimal,
          trades: z.number().int().nonnegative(),
        }),
      ),
    }),
  ),
});

const ZEnvelope = z.object({ format: z.literal(STATE_FORMAT), version: z.number(), savedAt: z.string() });

/** The saved state, or undefined when there is no file yet (first start). */
export const readSandboxState = (file: string): SavedExchange | undefined => {
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SandboxStateError(file, `it is not JSON (${(error as Error).message})`);
  }
  const envelope = ZEnvelope.safeParse(json);
  if (!envelope.success) throw new SandboxStateError(file, `it is not a ${STATE_FORMAT} file`);
  if (envelope.data.version !== STATE_VERSION) {
    throw new SandboxStateError(
      file,
      `it has version ${envelope.data.version}, this sandbox reads version ${STATE_VERSION}`,
    );
  }
  const state = ZSavedExchange.safeParse((json as { state?: unknown }).state);
  if (!state.success) {
    const issue = state.error.issues[0];
    throw new SandboxStateError(file, `it is damaged (${issue?.path.join('.')}: ${issue?.message})`);
  }
  return state.data;
};

/**
 * Writes the whole state to a temporary file, flushes it to disk and renames it over the old one:
 * a crash at any moment leaves either the previous file or the new one, never a half-written file.
 */
export const writeSandboxState = (file: string, state: SavedExchange): void => {
  writeAtomically(file, serialize(state));
};

const serialize = (state: SavedExchange) =>
  JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, savedAt: new Date().toISOString(), state });

const writeAtomically = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  // The rename itself must reach the disk too, or a power cut could bring the old file back.
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
};

export type StateSaver = {
  /** Writes now if anything changed since the last write. */
  flush(): void;
  /** Stops the timer and writes a last time. */
  close(): void;
};

/**
 * Saves `exchange` to `file` every `everyMs` while its state changes (and on close), skipping
 * writes when nothing changed. A crash loses at most the last interval.
 */
export const startStateSaver = (
  exchange: SandboxExchange,
  file: string,
  everyMs: number,
  onError: (error: unknown) => void,
): StateSaver => {
  // Without a file yet, the first flush writes one even if nothing moved: where a replayed market's
  // past ends is fixed at the first start and must survive the next.
  let written = existsSync(file) ? JSON.stringify(exchange.save()) : '';
  const flush = () => {
    const state = exchange.save();
    const text = JSON.stringify(state);
    if (text === written) return;
    writeSandboxState(file, state);
    written = text;
  };
  const timer = setInterval(() => {
    try {
      flush();
    } catch (error) {
      onError(error);
    }
  }, everyMs);
  timer.unref();
  return {
    flush,
    close: () => {
      clearInterval(timer);
      flush();
    },
  };
};
