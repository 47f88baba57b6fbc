import type { CoinBot, Lot as LotRow, Order, User } from '@gridbot/db';
import type { GridFlags, GridSettings, GridState, Lot } from '@gridbot/domain';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { licenseStatusOf } from '../license/user-license';
import type { PendingDealCommand } from './deal-commands';

export const ACTIVE_ORDER_STATUSES = ['pending', 'open'] as const;

export type CoinBotSnapshot = {
  bot: CoinBot & { user: Pick<User, 'dryAll'> };
  settings: GridSettings;
  state: GridState;
  flags: GridFlags;
  /** Our orders still pending placement or resting on the exchange. */
  active: Order[];
  /** The user's fee balance is ≤ 0: dry (no new buys, sells continue) until topped up. */
  feeBalanceEmpty: boolean;
  /** The user's licence has expired: dry until an upgrade or renewal (docs/licences.md#expiry). */
  licenseExpired: boolean;
  /** The user's deal commands not finished yet, with the orders carrying them (docs/grid.md#deal-controls). */
  commands: PendingDealCommand[];
};

/** Prisma's Decimal → decimal.js (never through a JS number). */
export const dec = (value: { toString(): string }) => new Decimal(value.toString());

export const lotFromRow = (row: LotRow): Lot => ({
  seq: row.seq,
  price: dec(row.buyPrice),
  qty: dec(row.qty),
  cost: dec(row.cost),
  openedAt: row.openedAt,
  realizedPnl: dec(row.realizedPnl),
});

/** Everything reconcile needs, read from the database in one go. */
export const loadCoinBot = async (
  ctx: ServiceContext,
  input: { coinBotId: number },
): Promise<CoinBotSnapshot | null> => {
  const bot = await ctx.prisma.coinBot.findUnique({
    where: { id: input.coinBotId },
    include: {
      user: {
        select: {
          dryAll: true,
          createdAt: true,
          licenseActiveFrom: true,
          licenseActiveUntil: true,
          license: true,
          // The fee balance: at zero or below the user's bots are dry (docs/fees.md#fee-balance).
          ledgerAccounts: { where: { subBalance: 'fee' }, select: { balance: true } },
        },
      },
      lots: { where: { closedAt: null }, orderBy: { seq: 'asc' } },
      orders: { where: { status: { in: [...ACTIVE_ORDER_STATUSES] } }, orderBy: { id: 'asc' } },
      dealCommands: {
        where: { status: 'pending' },
        orderBy: { id: 'asc' },
        include: { orders: { orderBy: { id: 'asc' } } },
      },
    },
  });
  if (!bot) return null;
  const {
    lots,
    orders,
    dealCommands,
    user: { ledgerAccounts, ...user },
    ...rest
  } = bot;
  const feeBalanceEmpty = (ledgerAccounts[0]?.balance ?? 0n) <= 0n;
  const licenseExpired = licenseStatusOf(bot.user, ctx.clock.now()).expired;
  return {
    bot: { ...rest, user },
    feeBalanceEmpty,
    licenseExpired,
    settings: {
      orderSize: dec(bot.orderSize),
      stepPct: dec(bot.stepPct),
      stepIncreasePct: dec(bot.stepIncreasePct),
      maxTrades: bot.maxTrades,
    },
    state: { lots: lots.map(lotFromRow), nextSeq: bot.nextSeq },
    flags: { running: bot.running, dry: bot.dry || bot.user.dryAll || licenseExpired || feeBalanceEmpty },
    active: orders,
    commands: dealCommands,
  };
};
