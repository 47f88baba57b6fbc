import type { Exchange, Ladder, PortfolioCoin, SettingsWarning } from '@gridbot/contracts';
import {
  DEFAULT_COIN_SETTINGS,
  deepBuyBreach,
  exceedsOpenOrderLimit,
  type GridSettings,
  licenseLimitBreach,
} from '@gridbot/domain';
import { minimumOrderValue } from '@gridbot/exchange';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import Decimal from 'decimal.js';
import { recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { getLicenseCheck, type LicenseCheck } from '../license/user-license';
import { findPortfolioCoin } from './get-coin';
import { ladderView } from './ladder-view';
import type { PortfolioCoinBot } from './portfolio-coin';
import { venueMarketData } from './venue-market-data';

export type CoinSettingsValues = {
  orderSize: string;
  stepPct: string;
  stepIncreasePct: string;
  maxTrades: number;
  dry: boolean;
};

export type EditCoinSettingsInput = {
  userId: number;
  coin: string;
  exchange?: Exchange | undefined;
  settings: CoinSettingsValues;
  /** Validate and return the re-planned ladder, save nothing. */
  preview: boolean;
  /** A reset to the defaults (logged as such). */
  reset?: boolean;
};

export type EditCoinSettingsResult = {
  saved: boolean;
  coin: PortfolioCoin;
  ladder: Ladder;
  warnings: SettingsWarning[];
};

/**
 * The market's filters the settings must respect (docs/grid.md#exchange-filters; Binance spot API
 * docs, filters.md): the order size at least its minimum order (NOTIONAL), the purchase limit at
 * most its open orders per account (MAX_NUM_ORDERS), both refused at preview and save; and every
 * averaging buy inside its PERCENT_PRICE_BY_SIDE band, returned as a warning (the preview shows
 * the ladder with it; the caller refuses a save).
 */
const checkExchangeFilters = async (
  ctx: ServiceContext,
  coin: PortfolioCoinBot,
  settings: GridSettings,
): Promise<SettingsWarning[]> => {
  const { markets } = await venueMarketData(ctx, coin.venue);
  const market = markets.get(coin.bot.symbol);
  // OKX lists a minimum quantity only: at the last price it is the minimum order value.
  const minimum = market ? minimumOrderValue(market, coin.lastPrice) : null;
  if (minimum && settings.orderSize.lt(minimum)) {
    throw new AppError('ORDER_BELOW_EXCHANGE_MIN');
  }
  if (exceedsOpenOrderLimit(settings.maxTrades, market?.maxNumOrders ?? null)) {
    throw new AppError('MAX_TRADES_ABOVE_EXCHANGE_LIMIT', [
      { path: 'maxTrades', message: `at most ${market?.maxNumOrders} (the market's MAX_NUM_ORDERS)` },
    ]);
  }
  const breach = market?.percentPriceBySide ? deepBuyBreach(settings, market.percentPriceBySide) : null;
  if (!breach) return [];
  return [
    {
      code: 'DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT',
      lotNumber: breach.lotNumber,
      stepPct: breach.stepPct.toFixed(),
      maxStepPct: breach.maxStepPct.toFixed(),
    },
  ];
};

/** Σ orderSize × maxTrades over the portfolio with this coin's new settings must fit the licence. */
const assertLicenseBalance = (license: LicenseCheck, coins: { orderSize: string; maxTrades: number }[]) => {
  if (licenseLimitBreach(license.level, coins) === 'LICENSE_BALANCE_LIMIT') {
    throw new AppError('LICENSE_BALANCE_LIMIT');
  }
};

const gridSettings = (s: CoinSettingsValues): GridSettings => ({
  orderSize: new Decimal(s.orderSize),
  stepPct: new Decimal(s.stepPct),
  stepIncreasePct: new Decimal(s.stepIncreasePct),
  maxTrades: s.maxTrades,
});

/**
 * Changes a coin's grid settings (docs/grid.md#editing-settings), or with `preview` only shows the
 * ladder they would give. Checked: the exchange's minimum order and the licence balance limit on
 * the committed capital of the whole portfolio (under a lock on the user's row when saving, so two
 * edits cannot together pass the limit). Saving applies to open deals: a reconcile (reason
 * `settings`) re-plans and replaces the resting orders, and the change is logged.
 */
export const editPortfolioCoinSettings = async (
  ctx: ServiceContext,
  input: EditCoinSettingsInput,
): Promise<EditCoinSettingsResult> => {
  const coin = await findPortfolioCoin(ctx, input);
  const warnings = await checkExchangeFilters(ctx, coin, gridSettings(input.settings));
  const proposed = { orderSize: input.settings.orderSize, maxTrades: input.settings.maxTrades };
  const othersOf = async (db: Parameters<typeof getLicenseCheck>[1]['db']) => {
    const license = await getLicenseCheck(ctx, { userId: input.userId, ...(db ? { db } : {}) });
    const rows = await (db ?? ctx.prisma).coinBot.findMany({
      where: { userId: input.userId, deletedAt: null, id: { not: coin.bot.id } },
      select: { orderSize: true, maxTrades: true },
    });
    const others = rows.map((r) => ({ orderSize: r.orderSize.toFixed(), maxTrades: r.maxTrades }));
    return { license, coins: [...others, proposed] };
  };
  if (input.preview) {
    const { license, coins } = await othersOf(undefined);
    assertLicenseBalance(license, coins);
    const flags = { running: coin.bot.running, dry: input.settings.dry || coin.dryAll };
    return {
      saved: false,
      coin: coin.view,
      ladder: ladderView(coin, {
        settings: gridSettings(input.settings),
        flags,
        preview: true,
        now: ctx.clock.now(),
      }),
      warnings,
    };
  }
  // What a preview warns of, a save refuses: the exchange would reject those buys for good.
  const refused = warnings[0];
  if (refused) {
    throw new AppError(refused.code, [
      {
        path: 'stepIncreasePct',
        message: `the buy of deal ${refused.lotNumber} of the purchase limit drops ${refused.stepPct} %; the market accepts at most ${refused.maxStepPct} %`,
      },
    ]);
  }
  const before = coin.view.settings;
  await ctx.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${input.userId} FOR UPDATE`;
    const { license, coins } = await othersOf(tx);
    assertLicenseBalance(license, coins);
    await tx.coinBot.update({ where: { id: coin.bot.id }, data: { ...input.settings } });
    await recordActivity(tx, {
      coinBotId: coin.bot.id,
      userId: input.userId,
      kind: input.reset ? 'settings_reset' : 'settings_changed',
      actor: 'user',
      data: { from: { ...before }, to: { ...input.settings } },
    });
  });
  await ctx.queue.enqueue(
    reconcileCoinBotJob,
    { coinBotId: coin.bot.id, reason: 'settings' },
    { jobId: reconcileJobId(coin.bot.id) },
  );
  ctx.log.info({ userId: input.userId, coin: input.coin }, 'coin settings saved');
  const saved = await findPortfolioCoin(ctx, { ...input, exchange: coin.view.exchange });
  return {
    saved: true,
    coin: saved.view,
    ladder: ladderView(saved, { now: ctx.clock.now() }),
    warnings: [],
  };
};

/** Puts a coin back on DEFAULT_COIN_SETTINGS (dry off), with the same checks as an edit. */
export const resetPortfolioCoinSettings = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; exchange?: Exchange | undefined },
): Promise<EditCoinSettingsResult & { saved: true }> => {
  const result = await editPortfolioCoinSettings(ctx, {
    ...input,
    settings: { ...DEFAULT_COIN_SETTINGS },
    preview: false,
    reset: true,
  });
  return { ...result, saved: true };
};
