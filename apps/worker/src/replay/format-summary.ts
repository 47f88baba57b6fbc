import { type CandleSeries, CLOSE, candleDecimal, type ReplayReport } from '@gridbot/domain';
import Decimal from 'decimal.js';
import type { ReplayOptions } from './parse-args';

const usdt = (value: string) => {
  const d = new Decimal(value);
  return `${d.isNegative() ? '' : '+'}${d.toFixed(6)} USDT`;
};
const plainUsdt = (value: string) => `${new Decimal(value).toFixed(6)} USDT`;
const utc = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

/** The human summary (stdout without --json). */
export const formatSummary = (
  options: ReplayOptions,
  candles: CandleSeries,
  report: ReplayReport,
): string => {
  const { settings, feePct, dryFrom } = options;
  const entries = report.fills.filter((fill) => fill.role === 'entry').length;
  const first = candles.time[0]!;
  const last = candles.time[candles.length - 1]!;
  const lastClose = candleDecimal(candles, candles.length - 1, CLOSE).toFixed();
  const rows: [string, string][] = [
    ['candles', `${candles.length} (${utc(first)} → ${utc(last)} UTC)`],
    [
      'settings',
      `order size ${settings.orderSize.toFixed()} · step ${settings.stepPct.toFixed()} % · ` +
        `step increase ${settings.stepIncreasePct.toFixed()} % · max trades ${settings.maxTrades} · ` +
        `fee ${feePct.toFixed()} %${dryFrom ? ` · dry from ${dryFrom.toISOString()}` : ''}`,
    ],
    ['buys', `${report.buys} (${entries} entries, ${report.buys - entries} averaging)`],
    ['sells', `${report.sells} (${report.profitableTrades} profitable)`],
    ['realized PnL', usdt(report.realizedPnl)],
    ['unrealized PnL', `${usdt(report.unrealizedPnl)} at last close ${lastClose}`],
    [
      'open lots',
      `${report.openLots} of ${settings.maxTrades} (most at once: ${report.maxOpenLots}), qty ${report.openQty}` +
        (report.avgPrice ? `, avg price ${report.avgPrice}` : ''),
    ],
    ['capital used', `${plainUsdt(report.capitalUsed)} (largest Σ cost of open lots)`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return `Replay of ${options.candlesPath}\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`;
};
