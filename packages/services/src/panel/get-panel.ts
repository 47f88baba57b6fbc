import type { Exchange } from '@gridbot/contracts';
import { Prisma } from '@gridbot/db';
import {
  type CoinStateName,
  coinStateOf,
  committedCapital,
  type DryReason,
  licenseStatus,
  orderOnBookStateOf,
  type PlanOnBook,
  plannedOrderKeys,
  planOnBookOf,
  usdtFigure,
} from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { type CoinError, coinErrorOf, runReturnView } from '../portfolio/figures';
import { getTradingBlockers, type TradingBlocker } from '../trading/trading-control';

export type PanelCoin = {
  coinUserId: number;
  coin: string;
  exchange: Exchange;
  running: boolean;
  dry: boolean;
  state: CoinStateName;
  dryReason: DryReason | null;
  lastPrice: string | null;
  openDeals: number;
  maxTrades: number;
  pnlToday: string;
  realizedPnl: string;
  unrealizedPnl: string;
  lastError: CoinError | null;
  book: PlanOnBook;
};

type PanelCoinRow = {
  id: number;
  coin: string;
  exchange: Exchange;
  running: boolean;
  dry: boolean;
  max_trades: number;
  order_size: string;
  realized_pnl: string;
  last_error: string | null;
  updated_at: string;
  open_deals: number;
  open_qty: string;
  open_cost: string;
  today: string;
  price: string | null;
  next_seq: number;
  /** Open lots' numbers, oldest first. */
  lot_seqs: number[];
  /** Running coins: the latest record of each key the planner may want (null without any). */
  orders: { key: string; status: string }[] | null;
};

type PanelRow = {
  dry_all: boolean;
  created_at: Date;
  license_active_from: Date | null;
  license_active_until: Date | null;
  code: string;
  rank: number;
  yearly_price: string;
  balance_limit: string;
  coins_limit: number;
  matching_generations: number;
  valid_days: number;
  fee: bigint | null;
  exchange: string | null;
  check_problem: string | null;
  can_trade: boolean | null;
  can_withdraw: boolean | null;
  /** Σ daily_pnl of the UTC day, every coin bot of the user (removed ones too). */
  pnl_today: string;
  /** Σ realized PnL of every coin bot of the user (removed ones too). */
  pnl_total: string;
  /** The first start of any coin bot of the user; null while none was started. */
  first_started_at: Date | null;
  coins: PanelCoinRow[];
};

/**
 * The trading panel in one SQL statement whatever the portfolio (it is polled every 2 s by every
 * open mini app), kept in the database as `panel_row()` (prisma/migrations/*_panel_booked_pnl): the user and licence level, the fee balance, the key verdict, and the coins with
 * their open-lot sums, today's `daily_pnl` and the last scanned price (`price_marks`, at most one
 * scan interval old: the panel never calls the exchange). Decimals travel as text, never as JSON
 * numbers. Figures are sums of the rows the PnL screens read (docs/pnl.md#shown-figures); today's
 * and the total profit are the booked PnL of every coin bot, removed ones too (docs/pnl.md#the-panel).
 */
export const getPanel = async (ctx: ServiceContext, input: { userId: number }) => {
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  // The statement lives in the database as panel_row() so its plan is cached per connection.
  const [row] = await ctx.prisma.$queryRaw<PanelRow[]>(
    Prisma.sql`SELECT * FROM panel_row(${input.userId}::integer, ${today}::date)`,
  );
  if (!row) throw new AppError('NO_USER');
  const fee = row.fee ?? 0n;
  const level = {
    code: row.code,
    rank: row.rank,
    yearlyPrice: row.yearly_price,
    balanceLimit: row.balance_limit,
    coins: row.coins_limit,
    matchingGenerations: row.matching_generations,
    validDays: row.valid_days,
  };
  const status = licenseStatus(
    level,
    {
      registeredAt: row.created_at,
      activeFrom: row.license_active_from,
      activeUntil: row.license_active_until,
    },
    now,
  );
  const license = {
    level,
    status,
    usage: {
      coins: row.coins.length,
      committedCapital: committedCapital(
        row.coins.map((c) => ({ orderSize: c.order_size, maxTrades: c.max_trades })),
      ),
    },
  };
  const account = row.exchange === null ? null : { checkProblem: row.check_problem };
  const todayPnl = new Decimal(row.pnl_today);
  const totalPnl = new Decimal(row.pnl_total);
  let unrealized = new Decimal(0);
  let openDeals = 0;
  const coins = row.coins.map((coin): PanelCoin => {
    const { state, dryReason } = coinStateOf({
      running: coin.running,
      coinDry: coin.dry,
      dryAll: row.dry_all,
      // The engine dries every coin while the licence is expired or the fee balance ≤ 0
      // (docs/grid.md#dry); the state shows what the engine does.
      licenseExpired: status.expired,
      feeBalanceEmpty: fee <= 0n,
      openLots: coin.open_deals,
      maxTrades: coin.max_trades,
      lastError: coin.last_error,
    });
    // Where the planned orders stand, from our records (docs/grid.md#on-the-exchange), as on the coin page.
    const statusOf = new Map((coin.orders ?? []).map((o) => [o.key, o.status]));
    const planned = plannedOrderKeys({
      flags: { running: coin.running, dry: dryReason !== null },
      lotSeqs: coin.lot_seqs,
      nextSeq: coin.next_seq,
      maxTrades: coin.max_trades,
    });
    const book = planOnBookOf(
      planned.map((o) => ({ side: o.side, state: orderOnBookStateOf(statusOf.get(o.key)) })),
    );
    const coinUnrealized =
      coin.price === null
        ? new Decimal(0)
        : new Decimal(coin.open_qty).times(coin.price).minus(coin.open_cost);
    unrealized = unrealized.plus(coinUnrealized);
    openDeals += coin.open_deals;
    return {
      coinUserId: coin.id,
      coin: coin.coin,
      exchange: coin.exchange,
      running: coin.running,
      dry: coin.dry,
      state,
      dryReason,
      lastPrice: coin.price === null ? null : new Decimal(coin.price).toFixed(),
      openDeals: coin.open_deals,
      maxTrades: coin.max_trades,
      pnlToday: usdtFigure(coin.today),
      realizedPnl: usdtFigure(coin.realized_pnl),
      unrealizedPnl: usdtFigure(coinUnrealized),
      lastError: coinErrorOf(coin.last_error, new Date(coin.updated_at)),
      book,
    };
  });
  const committed = new Decimal(license.usage.committedCapital);
  const blockers: TradingBlocker[] = getTradingBlockers({ account, fee, license });
  return {
    pnl: {
      today: usdtFigure(todayPnl),
      todayDate: today,
      todayPct: committed.isZero() ? '0' : todayPnl.div(committed).times(100).toDecimalPlaces(4).toFixed(),
      total: usdtFigure(totalPnl),
      unrealized: usdtFigure(unrealized),
      run: runReturnView({
        realizedPnl: totalPnl,
        capital: committed,
        startedAt: row.first_started_at && new Date(row.first_started_at),
        now,
      }),
    },
    running: coins.some((c) => c.running),
    allRunning: coins.length > 0 && coins.every((c) => c.running),
    dryAll: row.dry_all,
    openDeals,
    committedCapital: usdtFigure(committed),
    coins,
    license: {
      level: status.level,
      activeUntil: status.activeUntil.toISOString(),
      expired: status.expired,
      daysLeft: status.daysLeft,
      balanceLimit: usdtFigure(status.balanceLimit),
      coinsLimit: status.coins,
      renewalAvailable: status.renewal.available,
    },
    feeBalance: fromMicro(fee),
    exchange: {
      name: row.exchange,
      connected: row.exchange !== null && row.check_problem === null && !!row.can_trade && !row.can_withdraw,
    },
    blockers,
    updatedAt: now.toISOString(),
  };
};
