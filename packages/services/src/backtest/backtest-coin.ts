import {
  BACKTEST_CHART_FILLS,
  BACKTEST_CHART_POINTS,
  type BacktestResult,
  type BacktestWindow,
  type Exchange,
} from '@gridbot/contracts';
import {
  type CandleSeries,
  CLOSE,
  candleDecimal,
  DEFAULT_FEE_PCT,
  decimalText,
  exactDifference,
  exactProduct,
  exactSum,
  FILL_STRIDE,
  type GridSettings,
  LOW,
  ladderPreview,
  quoteFeeBuy,
  replayReport,
  type SimulationOutcome,
  simulateGrid,
  usdtFigure,
} from '@gridbot/domain';
import { CANDLE_INTERVALS, type CandleInterval } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { pickExchangeAccount } from '../exchange-keys/pick-exchange-account';
import { stepText } from '../portfolio/venue-precision';
import { loadCandles } from './candle-cache';

const DAY = 86_400_000;

/** Span and candle interval of each window (docs/grid.md#what-if-backtest). */
export const BACKTEST_WINDOW_SPECS: Record<BacktestWindow, { days: number; interval: CandleInterval }> = {
  '7d_1m': { days: 7, interval: '1m' },
  '30d_5m': { days: 30, interval: '5m' },
  '30d_1m': { days: 30, interval: '1m' },
  '365d_1h': { days: 365, interval: '1h' },
};

export type BacktestCoinInput = {
  userId: number;
  coin: string;
  /** The exchange whose candles to replay (default: the keys saved first). */
  exchange?: Exchange | undefined;
  orderSize: string;
  stepPct: string;
  stepIncreasePct: string;
  maxTrades: number;
  window: BacktestWindow;
};

/** [from, to) of a window ending at the open of the current (unfinished) candle. */
export const backtestRange = (window: BacktestWindow, now: number) => {
  const { days, interval } = BACKTEST_WINDOW_SPECS[window];
  const size = CANDLE_INTERVALS[interval];
  const to = now - (now % size);
  return { from: to - days * DAY, to, interval };
};

/**
 * The worst unrealized PnL of the open lots over the replay: at every candle's low, valued with
 * the lots open before and after that candle's fills. Searched in doubles, the worst one
 * recomputed exactly (the lots' quantities are the live formulas', quoteFeeBuy).
 */
export const worstDrawdown = (outcome: SimulationOutcome): { usdt: Decimal; at: number | null } => {
  const { candles, shape, fills, fillCount } = outcome;
  const entryQty = new Map<number, Decimal[]>();
  /** Σ qty of lots 1..depth of the entry at candle `entry` (exact, cached per entry). */
  const qtyOf = (entry: number, depth: number): Decimal => {
    let sums = entryQty.get(entry);
    if (!sums) {
      sums = [new Decimal(0)];
      entryQty.set(entry, sums);
    }
    const open = candleDecimal(candles, entry, 0);
    while (sums.length <= depth) {
      const k = sums.length;
      const price = exactProduct(open, shape.buyFactor(k));
      sums.push(exactSum(sums[k - 1]!, quoteFeeBuy(shape.settings.orderSize, price, shape.feePct).qty));
    }
    return sums[depth]!;
  };
  let worst = 0;
  let worstAt = -1;
  let worstState = { entry: -1, depth: 0 };
  let depth = 0;
  let entry = -1;
  let qtyNum = 0;
  let costNum = 0;
  let next = 0;
  const consider = (i: number) => {
    if (depth === 0) return;
    const value = qtyNum * candles.low[i]! - costNum;
    if (value < worst) {
      worst = value;
      worstAt = i;
      worstState = { entry, depth };
    }
  };
  for (let i = 0; i < candles.length; i++) {
    consider(i);
    while (next < fillCount && fills[next * FILL_STRIDE]! === i) {
      const signed = fills[next * FILL_STRIDE + 1]!;
      if (signed > 0) {
        entry = fills[next * FILL_STRIDE + 3]!;
        depth = signed;
      } else {
        depth = -signed - 1;
      }
      next += 1;
      qtyNum = depth > 0 ? qtyOf(entry, depth).toNumber() : 0;
      costNum = shape.openCost(depth).toNumber();
    }
    consider(i);
  }
  if (worstAt < 0) return { usdt: new Decimal(0), at: null };
  const exact = exactDifference(
    exactProduct(qtyOf(worstState.entry, worstState.depth), candleDecimal(candles, worstAt, LOW)),
    shape.openCost(worstState.depth),
  );
  return { usdt: exact.isNeg() ? exact : new Decimal(0), at: candles.time[worstAt]! };
};

const pctOf = (value: Decimal, of: Decimal) =>
  of.isZero() ? '0' : decimalText(value.mul(100).div(of).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN));

const priceSeries = (candles: CandleSeries) => {
  const points: { time: string; close: string }[] = [];
  if (candles.length === 0) return points;
  const stride = Math.ceil(candles.length / BACKTEST_CHART_POINTS);
  for (let i = 0; i < candles.length; i += stride) {
    const last = Math.min(i + stride - 1, candles.length - 1);
    points.push({
      time: new Date(candles.time[last]!).toISOString(),
      close: decimalText(candleDecimal(candles, last, CLOSE)),
    });
  }
  return points;
};

/** Capital tied up with all maxTrades lots open, from the ladder the live previews show. */
const capitalAtLimit = (settings: GridSettings, feePct: Decimal, price: Decimal): Decimal => {
  const preview = ladderPreview({ lots: [], nextSeq: 1 }, settings, { running: true, dry: false }, price, {
    feePct,
  });
  return preview.buys.at(-1)?.cumulativeCost ?? quoteFeeBuy(settings.orderSize, price, feePct).cost;
};

/**
 * What-if backtest (docs/grid.md#what-if-backtest): replays the settings with the live engine's
 * replay (docs/replay.md) over the coin's recent closed candles from the user's exchange, cached in
 * the database. Changes nothing of the user's. USDT figures are rounded once, half-even to 6
 * decimals, from the replay's exact ones (docs/pnl.md#shown-figures); percentages to 4 decimals.
 */
export const backtestCoin = async (
  ctx: ServiceContext,
  input: BacktestCoinInput,
): Promise<BacktestResult> => {
  // The coin's own exchange: the one named, else the keys saved first.
  const account = await pickExchangeAccount(ctx.prisma, { ...input, ambiguous: 'first' });
  if (!account) throw new AppError('API_KEYS_MISSING');
  // Markets and candles are public: the venue's shared key-less client (markets loaded once per
  // process) serves them; the account only says which venue is the user's.
  const venue = `${account.exchange}:${account.mode}`;
  const client = ctx.exchanges.forVenue(venue);
  await client.loadMarkets();
  const market = client.market(`${input.coin}/USDT`);
  const feePct = DEFAULT_FEE_PCT;
  const { from, to, interval } = backtestRange(input.window, ctx.clock.now().getTime());
  const candles = await loadCandles(ctx, client, { venue, symbol: market.symbol, interval }, { from, to });
  const settings: GridSettings = {
    orderSize: new Decimal(input.orderSize),
    stepPct: new Decimal(input.stepPct),
    stepIncreasePct: new Decimal(input.stepIncreasePct),
    maxTrades: input.maxTrades,
  };
  const outcome = simulateGrid({ candles, settings, feePct });
  const report = replayReport(outcome);
  const lastClose = candles.length > 0 ? candleDecimal(candles, candles.length - 1, CLOSE) : null;
  const firstOpen = candles.length > 0 ? candleDecimal(candles, 0, 0) : null;
  const capital = capitalAtLimit(settings, feePct, lastClose ?? firstOpen ?? new Decimal(1));
  const drawdown = worstDrawdown(outcome);
  const realized = new Decimal(report.realizedPnl);
  return {
    coin: input.coin,
    window: input.window,
    from: new Date(candles.length > 0 ? candles.time[0]! : from).toISOString(),
    to: new Date(to).toISOString(),
    candles: candles.length,
    feePct: decimalText(feePct),
    realizedPnl: usdtFigure(report.realizedPnl),
    realizedPnlPct: pctOf(realized, capital),
    closedDeals: report.sells,
    profitableDeals: report.profitableTrades,
    buys: report.buys,
    sells: report.sells,
    openLots: report.openLots,
    openQty: report.openQty,
    unrealizedPnl: usdtFigure(report.unrealizedPnl),
    lastClose: lastClose ? decimalText(lastClose) : null,
    priceTick: stepText(market.tickSize),
    qtyStep: stepText(market.stepSize),
    maxOpenLots: report.maxOpenLots,
    capitalAtLimit: usdtFigure(capital),
    capitalUsed: usdtFigure(report.capitalUsed),
    worstDrawdown: {
      usdt: usdtFigure(drawdown.usdt),
      pct: pctOf(drawdown.usdt, capital),
      at: drawdown.at === null ? null : new Date(drawdown.at).toISOString(),
    },
    fills: report.fills
      .slice(0, BACKTEST_CHART_FILLS)
      .map((f) => ({ time: f.time, side: f.side, price: f.price, qty: f.qty })),
    fillsTruncated: report.fills.length > BACKTEST_CHART_FILLS,
    prices: priceSeries(candles),
  };
};
