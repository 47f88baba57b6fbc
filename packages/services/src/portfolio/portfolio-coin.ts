import type { CoinProfitPeriod, Exchange, PortfolioCoin } from '@gridbot/contracts';
import type { CoinBot, Lot as LotRow } from '@gridbot/db';
import {
  coinStateOf,
  coinStats,
  type GridFlags,
  type GridSettings,
  type GridState,
  planOnBookOf,
  usdtFigure,
} from '@gridbot/domain';
import type { Ticker } from '@gridbot/exchange';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { coinBotWhere } from '../exchange-keys/pick-exchange-account';
import { dec, lotFromRow } from '../grid/coin-bot-state';
import { licenseStatusOf } from '../license/user-license';
import { coinErrorOf, pctOf, pctText, periodStart, runReturnView } from './figures';
import { type CoinOrdersOnBook, loadOrdersOnBook } from './orders-on-book';
import { lastPrices } from './venue-market-data';
import { type CoinMarket, coinMarkets } from './venue-precision';

/** One coin bot of a portfolio: the contract's card plus what it was built from (for ladders and checks). */
export type PortfolioCoinBot = {
  /** ZPortfolioCoin, as every screen shows it. */
  view: PortfolioCoin;
  bot: CoinBot;
  /** `<exchange>:<mode>` of the coin bot's exchange account. */
  venue: string;
  /** Open lots, oldest first. */
  openLots: LotRow[];
  settings: GridSettings;
  state: GridState;
  flags: GridFlags;
  /** The user's global drying mode. */
  dryAll: boolean;
  /** null when the exchange did not answer (or prices were not asked for). */
  lastPrice: Decimal | null;
  /** The market's tick, lot step and order rounding; null like lastPrice. */
  market: CoinMarket | null;
  /** Where each planned order stands on the exchange, by planner key (docs/grid.md#on-the-exchange). */
  orders: CoinOrdersOnBook['orders'];
};

export type LoadPortfolioCoinsInput = {
  userId: number;
  /** Window of periodPnl (default `day`). */
  period?: CoinProfitPeriod;
  /** Only this coin (upper-case base symbol). */
  coin?: string;
  /** Only coin bots on this exchange. */
  exchange?: Exchange | undefined;
  /**
   * false: no exchange call, lastPrice and market null (default true: one tickers call per venue and
   * the venue's shared markets).
   */
  prices?: boolean;
};

export type PortfolioCoins = { dryAll: boolean; coins: PortfolioCoinBot[] };

const ZERO = new Decimal(0);

/**
 * Every coin bot of a user still in the portfolio (docs/grid.md#coin-states, docs/pnl.md#portfolio-figures),
 * in the order they were added, with its ZPortfolioCoin card. A fixed number of queries whatever
 * the coin count — the user with coin bots, their open lots, their first fills, their period PnL —
 * plus one tickers call per venue. Shared by the portfolio, the coin screen, the panel and
 * trading control.
 */
export const loadPortfolioCoins = async (
  ctx: ServiceContext,
  input: LoadPortfolioCoinsInput,
): Promise<PortfolioCoins> => {
  const { prisma } = ctx;
  const user = await prisma.user.findUnique({
    where: { id: input.userId },
    select: {
      dryAll: true,
      createdAt: true,
      licenseActiveFrom: true,
      licenseActiveUntil: true,
      license: true,
      ledgerAccounts: { where: { subBalance: 'fee' }, select: { balance: true } },
      coinBots: {
        where: coinBotWhere({ coin: input.coin, exchange: input.exchange }),
        orderBy: { id: 'asc' },
        include: { exchangeAccount: { select: { exchange: true, mode: true } } },
      },
    },
  });
  if (!user || user.coinBots.length === 0) return { dryAll: user?.dryAll ?? false, coins: [] };
  const feeBalanceEmpty = (user.ledgerAccounts[0]?.balance ?? 0n) <= 0n;
  const now = ctx.clock.now();
  const licenseExpired = licenseStatusOf(user, now).expired;
  const ids = user.coinBots.map((b) => b.id);
  const from = periodStart(input.period ?? 'day', now);
  const symbolsByVenue = new Map<string, string[]>();
  for (const { exchangeAccount: a, symbol } of user.coinBots) {
    const venue = `${a.exchange}:${a.mode}`;
    symbolsByVenue.set(venue, [...(symbolsByVenue.get(venue) ?? []), symbol]);
  }

  const forced = { dryAll: user.dryAll, feeBalanceEmpty, licenseExpired };
  const lotsOf = prisma.lot
    .findMany({ where: { coinBotId: { in: ids }, closedAt: null }, orderBy: { seq: 'asc' } })
    .then((lots) => {
      const byBot = new Map<number, LotRow[]>();
      for (const lot of lots) byBot.set(lot.coinBotId, [...(byBot.get(lot.coinBotId) ?? []), lot]);
      return byBot;
    });
  const [openLotsOf, onBook, firstFills, periodPnl, prices, markets] = await Promise.all([
    lotsOf,
    // Where each planned order stands: from the lots and our order records, never the exchange.
    lotsOf.then((byBot) =>
      loadOrdersOnBook(
        ctx,
        user.coinBots.map((bot) => ({
          coinBotId: bot.id,
          flags: flagsOf(bot, forced),
          lotSeqs: (byBot.get(bot.id) ?? []).map((l) => l.seq),
          nextSeq: bot.nextSeq,
          maxTrades: bot.maxTrades,
          lastError: bot.lastError,
        })),
      ),
    ),
    prisma.fill.groupBy({ by: ['coinBotId'], where: { coinBotId: { in: ids } }, _min: { at: true } }),
    prisma.dailyPnl.groupBy({
      by: ['coinBotId'],
      where: { coinBotId: { in: ids }, ...(from ? { date: { gte: from } } : {}) },
      _sum: { realizedPnl: true },
    }),
    input.prices === false
      ? Promise.resolve(new Map<string, Map<string, Ticker>>())
      : lastPrices(ctx, symbolsByVenue),
    input.prices === false
      ? Promise.resolve(new Map<string, Map<string, CoinMarket>>())
      : coinMarkets(ctx, symbolsByVenue),
  ]);
  const startOf = new Map(firstFills.map((f) => [f.coinBotId, f._min.at]));
  const pnlOf = new Map(periodPnl.map((p) => [p.coinBotId, p._sum.realizedPnl]));

  const coins = user.coinBots.map(({ exchangeAccount, ...bot }): PortfolioCoinBot => {
    const venue = `${exchangeAccount.exchange}:${exchangeAccount.mode}`;
    const openLots = openLotsOf.get(bot.id) ?? [];
    const ticker = prices.get(venue)?.get(bot.symbol);
    const lastPrice = ticker?.last.gt(0) ? ticker.last : null;
    const periodRealized = dec(pnlOf.get(bot.id) ?? 0);
    return build({
      bot,
      venue,
      exchange: exchangeAccount.exchange as Exchange,
      openLots,
      ...forced,
      lastPrice,
      market: markets.get(venue)?.get(bot.symbol) ?? null,
      startDate: startOf.get(bot.id) ?? null,
      periodPnl: periodRealized,
      now,
      onBook: onBook.get(bot.id) ?? { orders: new Map(), book: planOnBookOf([]) },
    });
  });
  return { dryAll: user.dryAll, coins };
};

type Forced = Pick<BuildInput, 'dryAll' | 'feeBalanceEmpty' | 'licenseExpired'>;

/** What the engine plans with (coin-bot-state.ts loadCoinBot). */
const flagsOf = (bot: Pick<CoinBot, 'running' | 'dry'>, forced: Forced): GridFlags => ({
  running: bot.running,
  dry: bot.dry || forced.dryAll || forced.licenseExpired || forced.feeBalanceEmpty,
});

type BuildInput = {
  bot: CoinBot;
  venue: string;
  exchange: Exchange;
  openLots: LotRow[];
  dryAll: boolean;
  /** The user's fee balance is ≤ 0: the engine keeps every coin dry (docs/fees.md#fee-balance). */
  feeBalanceEmpty: boolean;
  /** The user's licence has expired: the engine keeps every coin dry (docs/licences.md#expiry). */
  licenseExpired: boolean;
  lastPrice: Decimal | null;
  market: CoinMarket | null;
  startDate: Date | null;
  periodPnl: Decimal;
  now: Date;
  onBook: CoinOrdersOnBook;
};

const build = (input: BuildInput): PortfolioCoinBot => {
  const { bot, openLots, lastPrice, market } = input;
  const settings: GridSettings = {
    orderSize: dec(bot.orderSize),
    stepPct: dec(bot.stepPct),
    stepIncreasePct: dec(bot.stepIncreasePct),
    maxTrades: bot.maxTrades,
  };
  const state: GridState = { lots: openLots.map(lotFromRow), nextSeq: bot.nextSeq };
  const flags = flagsOf(bot, input);
  const { state: coinState, dryReason } = coinStateOf({
    running: bot.running,
    coinDry: bot.dry,
    dryAll: input.dryAll,
    licenseExpired: input.licenseExpired,
    feeBalanceEmpty: input.feeBalanceEmpty,
    openLots: openLots.length,
    maxTrades: bot.maxTrades,
    lastError: bot.lastError,
  });
  // Without a price the open lots are valued at cost: unrealized PnL 0 (docs/pnl.md#portfolio-figures).
  const open = coinStats(state, [], lastPrice ?? ZERO);
  const unrealized = lastPrice ? open.unrealizedPnl : ZERO;
  const committed = settings.orderSize.times(settings.maxTrades);
  const view: PortfolioCoin = {
    coinUserId: bot.id,
    coin: bot.coin,
    exchange: input.exchange,
    symbol: bot.symbol,
    addedAt: bot.createdAt.toISOString(),
    settings: {
      orderSize: usdtFigure(settings.orderSize),
      stepPct: settings.stepPct.toFixed(),
      stepIncreasePct: settings.stepIncreasePct.toFixed(),
      maxTrades: bot.maxTrades,
      dry: bot.dry,
    },
    running: bot.running,
    state: coinState,
    dryReason,
    lastPrice: lastPrice?.toFixed() ?? null,
    priceTick: market?.priceTick.toFixed() ?? null,
    qtyStep: market?.qtyStep.toFixed() ?? null,
    committedCapital: usdtFigure(committed),
    periodPnl: usdtFigure(input.periodPnl),
    periodPnlPct: pctText(pctOf(input.periodPnl, committed)),
    stats: {
      unrealizedPnl: usdtFigure(unrealized),
      realizedPnl: usdtFigure(dec(bot.realizedPnl)),
      openDeals: open.openDeals,
      openQty: open.openQty.toFixed(),
      invested: usdtFigure(open.invested),
      avgPrice: open.avgPrice?.toDecimalPlaces(12, Decimal.ROUND_HALF_EVEN).toFixed() ?? null,
      startDate: input.startDate?.toISOString() ?? null,
      profitableTrades: bot.profitableTrades,
      closedTrades: bot.closedTrades,
      tradeFeesPaid: fromMicro(bot.tradeFees),
      run: runReturnView({
        realizedPnl: dec(bot.realizedPnl),
        capital: committed,
        startedAt: bot.startedAt,
        now: input.now,
      }),
    },
    lastError: coinErrorOf(bot.lastError, bot.reconciledAt ?? bot.updatedAt),
    marketClosed: bot.marketStatus
      ? { status: bot.marketStatus, since: (bot.marketStatusAt ?? bot.updatedAt).toISOString() }
      : null,
    book: input.onBook.book,
  };
  return {
    view,
    bot,
    venue: input.venue,
    openLots,
    settings,
    state,
    flags,
    dryAll: input.dryAll,
    lastPrice,
    market,
    orders: input.onBook.orders,
  };
};
