import { Prisma } from '@gridbot/db';
import {
  type CoinStateName,
  coinStateOf,
  committedCapital,
  type DryReason,
  licenseStatus,
  usdtFigure,
} from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { type CoinError, coinErrorOf } from '../portfolio/figures';
import { getTradingBlockers, type TradingBlocker } from '../trading/trading-control';

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

type PanelCoinRow = {
  id: number;
  coin: string;
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
  coins: PanelCoinRow[];
};

/**
 * The trading panel in one SQL statement whatever the portfolio (it is polled every 2 s by every
 * open mini app): the user and licence level, the fee balance, the key verdict, and the coins with
 * their open-lot sums, today's `daily_pnl` and the last scanned price (`price_marks`, at most one
 * scan interval old: the panel never calls the exchange). Decimals travel as text, never as JSON
 * numbers. Figures are sums of the rows the PnL screens read (docs/pnl.md#shown-figures).
 */
export const getPanel = async (ctx: ServiceContext, input: { userId: number }) => {
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  const [row] = await ctx.prisma.$queryRaw<PanelRow[]>(Prisma.sql`
    SELECT u.dry_all, u.created_at, u.license_active_from, u.license_active_until,
           ll.code, ll.rank, ll.yearly_price::text AS yearly_price, ll.balance_limit::text AS balance_limit,
           ll.coins AS coins_limit, ll.matching_generations, ll.valid_days,
           (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND sub_balance = 'fee') AS fee,
           a.exchange, a.check_problem, a.can_trade, a.can_withdraw,
           COALESCE((
             SELECT json_agg(json_build_object(
                      'id', b.id, 'coin', b.coin, 'running', b.running, 'dry', b.dry,
                      'max_trades', b.max_trades, 'order_size', b.order_size::text,
                      'realized_pnl', b.realized_pnl::text, 'last_error', b.last_error,
                      'updated_at', COALESCE(b.reconciled_at, b.updated_at), 'open_deals', COALESCE(l.n, 0),
                      'open_qty', COALESCE(l.qty, 0)::text, 'open_cost', COALESCE(l.cost, 0)::text,
                      'today', COALESCE(d.realized_pnl, 0)::text, 'price', m.price::text) ORDER BY b.id)
               FROM coin_bots b
               JOIN exchange_accounts ba ON ba.id = b.exchange_account_id
               LEFT JOIN LATERAL (
                 SELECT COUNT(*) AS n, SUM(qty) AS qty, SUM(cost) AS cost
                   FROM lots WHERE coin_bot_id = b.id AND closed_at IS NULL
               ) l ON true
               LEFT JOIN daily_pnl d ON d.coin_bot_id = b.id AND d.date = ${today}::date
               LEFT JOIN price_marks m ON m.venue = ba.exchange || ':' || ba.mode AND m.symbol = b.symbol
              WHERE b.user_id = u.id AND b.deleted_at IS NULL
           ), '[]'::json) AS coins
      FROM users u
      JOIN license_levels ll ON ll.code = u.license_level
      LEFT JOIN LATERAL (
        SELECT exchange, check_problem, can_trade, can_withdraw
          FROM exchange_accounts WHERE user_id = u.id ORDER BY id LIMIT 1
      ) a ON true
     WHERE u.id = ${input.userId}`);
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
  let todayPnl = new Decimal(0);
  let totalPnl = new Decimal(0);
  let unrealized = new Decimal(0);
  let openDeals = 0;
  const coins = row.coins.map((coin): PanelCoin => {
    const { state, dryReason } = coinStateOf({
      running: coin.running,
      coinDry: coin.dry,
      dryAll: row.dry_all,
      // Licence expiry and an empty fee balance stop buys at start only until the engine dries
      // coins for them (docs/grid.md#coin-states); the state shows what the engine does.
      openLots: coin.open_deals,
      maxTrades: coin.max_trades,
      lastError: coin.last_error,
    });
    const coinUnrealized =
      coin.price === null
        ? new Decimal(0)
        : new Decimal(coin.open_qty).times(coin.price).minus(coin.open_cost);
    todayPnl = todayPnl.plus(coin.today);
    totalPnl = totalPnl.plus(coin.realized_pnl);
    unrealized = unrealized.plus(coinUnrealized);
    openDeals += coin.open_deals;
    return {
      coinUserId: coin.id,
      coin: coin.coin,
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
