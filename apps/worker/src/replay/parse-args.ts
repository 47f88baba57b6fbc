import { parseArgs } from 'node:util';
import { type GridSettings, validateGridSettings } from '@gridbot/domain';
import Decimal from 'decimal.js';
import { parseUtcTime } from './utc-time';

export class UsageError extends Error {
  override name = 'UsageError';
}

export type ReplayOptions = {
  candlesPath: string;
  settings: GridSettings;
  feePct: Decimal;
  dryFrom: Date | null;
  json: boolean;
};

const DECIMAL = /^\d+(\.\d+)?$/;

const decimalOption = (name: string, value: string | undefined): Decimal => {
  if (value === undefined) throw new UsageError(`missing --${name}`);
  if (!DECIMAL.test(value))
    throw new UsageError(`--${name} must be a non-negative decimal number, got '${value}'`);
  return new Decimal(value);
};

const integerOption = (name: string, value: string | undefined): number => {
  if (value === undefined) throw new UsageError(`missing --${name}`);
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got '${value}'`);
  return Number(value);
};

/** UTC unless the time names its zone (utc-time.ts). */
const dryFromOption = (value: string | undefined): Date | null => {
  if (value === undefined) return null;
  const at = parseUtcTime(value);
  if (typeof at === 'string') {
    throw new UsageError(
      `--dry-from must be an ISO time such as 2018-01-25T00:00:00Z (UTC unless a zone is given): '${value}' ${at}`,
    );
  }
  return new Date(at);
};

/** argv without node and script. Throws UsageError with a message fit for the user; null means --help. */
export const parseReplayArgs = (argv: string[]): ReplayOptions | null => {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        candles: { type: 'string' },
        'order-size': { type: 'string' },
        step: { type: 'string' },
        'step-increase': { type: 'string' },
        'max-trades': { type: 'string' },
        fee: { type: 'string' },
        'dry-from': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return null;
  const text = (name: string) => values[name] as string | undefined;
  const candlesPath = text('candles');
  if (!candlesPath) throw new UsageError('missing --candles <file>');
  const settings: GridSettings = {
    orderSize: decimalOption('order-size', text('order-size')),
    stepPct: decimalOption('step', text('step')),
    stepIncreasePct: decimalOption('step-increase', text('step-increase')),
    maxTrades: integerOption('max-trades', text('max-trades')),
  };
  const problems = validateGridSettings(settings);
  if (problems.length > 0) throw new UsageError(problems.map((p) => p.message).join('; '));
  const feePct = text('fee') === undefined ? new Decimal('0.1') : decimalOption('fee', text('fee'));
  if (feePct.gte(100)) throw new UsageError(`--fee must be below 100 %, got ${feePct.toFixed()}`);
  return {
    candlesPath,
    settings,
    feePct,
    dryFrom: dryFromOption(text('dry-from')),
    json: values.json === true,
  };
};
