import { type ErrorCode, errorCatalogue, type RunReturn } from '@gridbot/contracts';
import { runReturn } from '@gridbot/domain';
import Decimal from 'decimal.js';

/** A coin bot's last refusal as the screens show it: code, the catalogue's message, when. */
export type CoinError = { code: string; message: string; at: string };

/** `at`: when it was seen (the last reconcile, else the row's last change). */
export const coinErrorOf = (code: string | null, at: Date): CoinError | null =>
  code ? { code, message: errorCatalogue[code as ErrorCode]?.message ?? code, at: at.toISOString() } : null;

/**
 * How portfolio figures go on the wire (docs/pnl.md#portfolio-figures): USDT through `usdtFigure`
 * (packages/domain/src/money.ts), percentages rounded half-even to 2, prices and quantities exact.
 */
export const pctText = (value: Decimal): string => {
  const text = value.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed();
  return text === '-0' ? '0' : text;
};

/** part / whole × 100, 0 when the whole is 0. */
export const pctOf = (part: Decimal, whole: Decimal): Decimal =>
  whole.isZero() ? new Decimal(0) : part.div(whole).times(100);

const DAY_MS = 86_400_000;

/** First UTC day of a coin profit period (day = today, week/month/year = rolling 7/30/365 days), null for all. */
export const periodStart = (period: 'day' | 'week' | 'month' | 'year' | 'all', now: Date): Date | null => {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = { day: 1, week: 7, month: 30, year: 365, all: 0 }[period];
  return days === 0 ? null : new Date(today - (days - 1) * DAY_MS);
};

/**
 * Runtime and return as the screens show them (docs/pnl.md#runtime-and-return): the coin bot's or
 * the portfolio's realized PnL over its capital, since its first start.
 */
export const runReturnView = (input: {
  realizedPnl: Decimal.Value;
  capital: Decimal.Value;
  startedAt: Date | null;
  now: Date;
}): RunReturn => {
  const run = runReturn(input);
  return {
    runningSince: input.startedAt?.toISOString() ?? null,
    runtimeSeconds: run.runtimeSeconds,
    returnPct: run.returnPct && pctText(run.returnPct),
    annualizedPct: run.annualizedPct && pctText(run.annualizedPct),
  };
};
