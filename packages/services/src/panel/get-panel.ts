import { type ErrorCode, errorCatalogue } from '@gridbot/contracts';
import { Prisma } from '@gridbot/db';
import { type CoinStateName, coinStateOf, type DryReason, usdtFigure } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { getLicenseCheck } from '../license/user-license';
import { feeBalanceMicro, getTradingBlockers, type TradingBlocker } from '../trading/trading-control';

/** A coin bot's last refusal as the screens show it: code, the catalogue's message, when. */
export type CoinError = { code: string; message: string; at: string };

export const coinErrorOf = (code: string | null, at: Date): CoinError | null => {
  if (!code) return null;
  const entry = errorCatalogue[code as ErrorCode];
  return {
    code,
    message: entry?.message ?? errorCatalogue.GRID_STATE_CONFLICT.message,
    at: at.toISOString(),
  };
};

export type PanelCoin = {
  coinUserId: number;
  coin: string;
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
};

type PanelRow = {
  id: number;
  coin: string;
  running: boolean;
  dry: boolean;
  max_trades: number;
  order_size: string;
  realized_pnl: string;
  last_error: string | null;
  updated_at: Date;
  open_deals: number;
  open_qty: string;
  open_cost: string;
  today: string;
  price: string | null;
};

/**
 * The trading panel in a fixed number of queries whatever the portfolio: one for the coins with
 * their open-lot sums, today's `daily_pnl` and the last scanned price (`price_marks`, at most one
 * scan interval old: the panel never calls the exchange), plus the user, licence, fee balance and
 * key verdict. Figures are sums of the same rows the PnL screens read (docs/pnl.md#shown-figures).
 */
export const getPanel = async (ctx: ServiceContext, input: { userId: number }) => {
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  const [user, rows, license, fee, account] = await Promise.all([
    ctx.prisma.user.findUniqueOrThrow({ where: { id: input.userId }, select: { dryAll: true } }),
    ctx.prisma.$queryRaw<PanelRow[]>(Prisma.sql`
      SELECT b.id, b.coin, b.running, b.dry, b.max_trades, b.order_size::text AS order_size,
             b.realized_pnl::text AS realized_pnl, b.last_error, b.updated_at,
             COALESCE(l.n, 0)::int AS open_deals, COALESCE(l.qty, 0)::text AS open_qty,
             COALESCE(l.cost, 0)::text AS open_cost, COALESCE(d.realized_pnl, 0)::text AS today,
             m.price::text AS price
        FROM coin_bots b
        JOIN exchange_accounts a ON a.id = b.exchange_account_id
        LEFT JOIN LATERAL (
          SELECT COUNT(*) AS n, SUM(qty) AS qty, SUM(cost) AS cost
            FROM lots WHERE coin_bot_id = b.id AND closed_at IS NULL
        ) l ON true
        LEFT JOIN daily_pnl d ON d.coin_bot_id = b.id AND d.date = ${today}::date
        LEFT JOIN price_marks m ON m.venue = a.exchange || ':' || a.mode AND m.symbol = b.symbol
       WHERE b.user_id = ${input.userId}
       ORDER BY b.id`),
    getLicenseCheck(ctx, { userId: input.userId }),
    feeBalanceMicro(ctx, input.userId),
    ctx.prisma.exchangeAccount.findFirst({
      where: { userId: input.userId },
      select: { exchange: true, checkProblem: true, canTrade: true, canWithdraw: true },
    }),
  ]);
  let todayPnl = new Decimal(0);
  let totalPnl = new Decimal(0);
  let unrealized = new Decimal(0);
  let openDeals = 0;
  const coins = rows.map((row): PanelCoin => {
    const { state, dryReason } = coinStateOf({
      running: row.running,
      coinDry: row.dry,
      dryAll: user.dryAll,
      // Licence expiry and an empty fee balance stop buys at start only until the engine dries
      // coins for them (docs/grid.md#coin-states); the state shows what the engine does.
      openLots: row.open_deals,
      maxTrades: row.max_trades,
      lastError: row.last_error,
    });
    const coinUnrealized =
      row.price === null ? new Decimal(0) : new Decimal(row.open_qty).times(row.price).minus(row.open_cost);
    todayPnl = todayPnl.plus(row.today);
    totalPnl = totalPnl.plus(row.realized_pnl);
    unrealized = unrealized.plus(coinUnrealized);
    openDeals += row.open_deals;
    return {
      coinUserId: row.id,
      coin: row.coin,
      running: row.running,
      dry: row.dry,
      state,
      dryReason,
      lastPrice: row.price === null ? null : new Decimal(row.price).toFixed(),
      openDeals: row.open_deals,
      maxTrades: row.max_trades,
      pnlToday: usdtFigure(row.today),
      realizedPnl: usdtFigure(row.realized_pnl),
      unrealizedPnl: usdtFigure(coinUnrealized),
      lastError: coinErrorOf(row.last_error, row.updated_at),
    };
  });
  const committed = new Decimal(license.usage.committedCapital);
  const blockers: TradingBlocker[] = getTradingBlockers({ account, fee, license });
  return {
    pnl: {
      today: usdtFigure(todayPnl),
      todayPct: committed.isZero() ? '0' : todayPnl.div(committed).times(100).toDecimalPlaces(4).toFixed(),
      total: usdtFigure(totalPnl),
      unrealized: usdtFigure(unrealized),
    },
    running: coins.some((c) => c.running),
    allRunning: coins.length > 0 && coins.every((c) => c.running),
    dryAll: user.dryAll,
    openDeals,
    committedCapital: usdtFigure(committed),
    coins,
    license: {
      level: license.status.level,
      activeUntil: license.status.activeUntil.toISOString(),
      expired: license.status.expired,
      daysLeft: license.status.daysLeft,
      balanceLimit: usdtFigure(license.status.balanceLimit),
      coinsLimit: license.status.coins,
      renewalAvailable: license.status.renewal.available,
    },
    feeBalance: fromMicro(fee),
    exchange: {
      name: account?.exchange ?? null,
      connected: !!account && account.checkProblem === null && account.canTrade && !account.canWithdraw,
    },
    blockers,
    updatedAt: now.toISOString(),
  };
};
