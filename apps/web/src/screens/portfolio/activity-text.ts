import type { listCoinActivity, ResponseOf } from '@gridbot/contracts';
import type { TFunction } from 'i18next';
import { trimDecimal } from '../../format/decimal';
import type { MarketFormat } from '../../format/market-format';
import type { Formatters } from '../../format/use-format';

export type ActivityEntry = ResponseOf<typeof listCoinActivity>['data'][number];

/** How an entry reads: one line, optional facts below it, and the exchange's own words verbatim. */
export type ActivityText = {
  title: string;
  details: string[];
  /** A rejection's message exactly as the exchange sent it. */
  quote: string | null;
  tone: 'positive' | 'negative' | 'neutral';
};

type Data = Record<string, unknown>;

/** A fact of `data` as text: the writer stores decimals as strings and counts as numbers. */
const textOf = (data: Data, key: string): string | null => {
  const value = data[key];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
};

const objectOf = (data: Data, key: string): Data | null => {
  const value = data[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : null;
};

const SETTINGS = ['orderSize', 'stepPct', 'stepIncreasePct', 'maxTrades', 'dry'] as const;
type SettingKey = (typeof SETTINGS)[number];

const SETTING_LABEL = {
  orderSize: 'token.orderSize',
  stepPct: 'token.step',
  stepIncreasePct: 'token.stepIncrease',
  maxTrades: 'token.maxTrades',
  dry: 'token.dry',
} as const satisfies Record<SettingKey, string>;

/** `market`: the coin's prices and quantities at its tick and lot step (docs/conventions.md#money-and-numbers). */
type Context = { t: TFunction; format: Formatters; market: MarketFormat };

const settingValue = ({ t, format }: Context, key: SettingKey, value: unknown): string | null => {
  if (key === 'dry') return typeof value === 'boolean' ? t(value ? 'common.on' : 'common.off') : null;
  const text = textOf({ value }, 'value');
  if (text === null) return null;
  if (key === 'orderSize') return t('common.usdt', { amount: format.usdtExact(text) });
  if (key === 'maxTrades') return text;
  return format.pct(text);
};

/** One line per setting that differs between `from` and `to` (decimals compared without trailing zeros). */
const settingChanges = (context: Context, data: Data): string[] => {
  const from = objectOf(data, 'from');
  const to = objectOf(data, 'to');
  if (!from || !to) return [];
  return SETTINGS.flatMap((key) => {
    const before = settingValue(context, key, from[key]);
    const after = settingValue(context, key, to[key]);
    if (after === null) return [];
    const same =
      typeof from[key] === 'boolean'
        ? from[key] === to[key]
        : trimDecimal(String(from[key])) === trimDecimal(String(to[key]));
    if (same) return [];
    return [
      context.t('activity.change', { name: context.t(SETTING_LABEL[key]), from: before ?? '—', to: after }),
    ];
  });
};

/** The coin's settings in one line (a coin added with its defaults). */
const settingsLine = (context: Context, settings: Data | null): string[] => {
  if (!settings) return [];
  return [
    SETTINGS.flatMap((key) => {
      const value = settingValue(context, key, settings[key]);
      return value === null ? [] : [`${context.t(SETTING_LABEL[key])}: ${value}`];
    }).join(' · '),
  ].filter(Boolean);
};

/** Which order of the grid: `entry:<lot>`, `buy:<lot>`, `tp:<lot>`, `sell:<lot>` (docs/grid.md#editing-settings, #deal-controls). */
const orderName = ({ t }: Context, data: Data): string => {
  const [role, lot] = (textOf(data, 'key') ?? '').split(':');
  if (lot && (role === 'entry' || role === 'buy' || role === 'tp' || role === 'sell'))
    return t(`activity.order.${role}`, { lot });
  return t('activity.order.other');
};

const sideOf = ({ t }: Context, data: Data): string =>
  data.side === 'sell' ? t('activity.side.sell') : t('activity.side.buy');

const orderText = (context: Context, kind: ActivityEntry['kind'], data: Data): ActivityText => {
  const { t, format, market } = context;
  const order = orderName(context, data);
  const side = sideOf(context, data);
  const price = textOf(data, 'price');
  const qty = textOf(data, 'qty');
  const quote = textOf(data, 'quote');
  const base = { details: [] as string[], quote: null, tone: 'neutral' as const };
  if (kind === 'order_placed') {
    if (price && qty) {
      return {
        ...base,
        title: t('activity.placed', { order, side, qty: market.qty(qty), price: market.price(price) }),
      };
    }
    if (quote)
      return { ...base, title: t('activity.placedMarket', { order, side, quote: format.usdtExact(quote) }) };
    // The user's market sale of a lot (docs/grid.md#deal-controls): its quantity, no price.
    if (qty) return { ...base, title: t('activity.placedMarketQty', { order, side, qty: market.qty(qty) }) };
    return { ...base, title: t('activity.placedPlain', { order }) };
  }
  if (kind === 'order_filled') {
    const title =
      price && qty
        ? t('activity.filled', { order, side, qty: market.qty(qty), price: market.price(price) })
        : t('activity.filledPlain', { order });
    return { ...base, title, tone: 'positive' };
  }
  if (kind === 'order_cancelled') {
    const reason = textOf(data, 'reason');
    return {
      ...base,
      title: price
        ? t('activity.cancelledAt', { order, price: market.price(price) })
        : t('activity.cancelled', { order }),
      details: reason === 'replanned' || reason === 'orphan' ? [t(`activity.cancelReason.${reason}`)] : [],
    };
  }
  const code = textOf(data, 'exchangeCode') ?? textOf(data, 'code');
  return {
    title: t('activity.rejected', { order }),
    details: [
      ...(price ? [t('activity.rejectedOrder', { side, price: market.price(price) })] : []),
      ...(code ? [t('activity.code', { code })] : []),
    ],
    quote: textOf(data, 'message'),
    tone: 'negative',
  };
};

const lotsOf = (data: Data): string =>
  Array.isArray(data.lots) ? data.lots.filter((lot) => typeof lot === 'number').join(', ') : '';

/** The user's deal controls and how the bot ended them (docs/grid.md#deal-controls). */
const dealText = (
  { t, format }: Context,
  kind: 'deal_sale_requested' | 'buy_cancel_requested' | 'deal_command_done',
  data: Data,
): ActivityText => {
  if (kind === 'deal_sale_requested') {
    const lots = lotsOf(data);
    const all = data.scope === 'all';
    if (!lots) return plain(t(all ? 'activity.closeAllRequestedPlain' : 'activity.saleRequestedPlain'));
    return plain(t(all ? 'activity.closeAllRequested' : 'activity.saleRequested', { lots }));
  }
  if (kind === 'buy_cancel_requested') {
    const lot = textOf(data, 'lot');
    return plain(lot ? t('activity.buyCancelRequested', { lot }) : t('activity.buyCancelRequestedPlain'));
  }
  const status = textOf(data, 'status');
  const known = ['done', 'already_sold', 'already_filled', 'failed', 'expired'] as const;
  const which = known.find((s) => s === status) ?? 'done';
  const code = textOf(data, 'code');
  const pnl = textOf(data, 'pnl');
  const sold = which === 'done' && data.kind !== 'cancel_buy' && pnl !== null;
  return {
    title: t(`activity.commandDone.${which}`),
    details: [
      ...(sold
        ? [
            t('activity.commandResult', {
              pnl: format.usdt(pnl, { plus: true }),
              fee: format.usdt(textOf(data, 'tradeFee') ?? '0'),
            }),
          ]
        : []),
      ...(code ? [t('activity.code', { code })] : []),
    ],
    quote: null,
    tone: which === 'failed' || which === 'expired' ? 'negative' : which === 'done' ? 'positive' : 'neutral',
  };
};

const plain = (title: string, details: string[] = []): ActivityText => ({
  title,
  details,
  quote: null,
  tone: 'neutral',
});

/**
 * One activity entry in the reader's language, with every fact its `data` carries
 * (docs/grid.md#activity-log); its prices and quantities at the coin's tick and lot step.
 */
export const describeActivity = (
  entry: ActivityEntry,
  t: TFunction,
  format: Formatters,
  market: MarketFormat = { price: (v) => format.price(v, null), qty: (v) => format.qty(v, null) },
): ActivityText => {
  const context = { t, format, market };
  const data = entry.data ?? {};
  switch (entry.kind) {
    case 'order_placed':
    case 'order_filled':
    case 'order_cancelled':
    case 'order_rejected':
      return orderText(context, entry.kind, data);
    case 'started':
      return plain(t('activity.started'));
    case 'paused':
      return plain(t('activity.paused'));
    case 'dry_on':
      return plain(t(data.scope === 'all' ? 'activity.dryOnAll' : 'activity.dryOn'));
    case 'dry_off':
      return plain(t(data.scope === 'all' ? 'activity.dryOffAll' : 'activity.dryOff'));
    case 'settings_changed':
      return plain(t('activity.settingsChanged'), settingChanges(context, data));
    case 'settings_reset':
      return plain(t('activity.settingsReset'), settingChanges(context, data));
    case 'keys_changed': {
      // Keys of another exchange account: the deals stayed on the previous one (docs/grid.md#replacing-api-keys).
      if (data.reason !== 'other_account') return plain(t('activity.keysChanged'));
      const details = [
        t('activity.otherAccountDetail', {
          orders: textOf(data, 'cancelledOrders') ?? '0',
          lots: textOf(data, 'lotsLeft') ?? '0',
          qty: market.qty(textOf(data, 'quantityLeft') ?? '0'),
          left: textOf(data, 'ordersLeft') ?? '0',
        }),
      ];
      return plain(t('activity.keysChangedOtherAccount'), details);
    }
    case 'coin_added': {
      const symbol = textOf(data, 'symbol');
      return plain(
        symbol ? t('activity.coinAdded', { symbol }) : t('activity.coinAddedPlain'),
        settingsLine(context, objectOf(data, 'settings')),
      );
    }
    case 'coin_removed': {
      const orders = textOf(data, 'cancelledOrders');
      const lots = textOf(data, 'lotsLeft');
      const qty = textOf(data, 'quantityLeft');
      const details =
        orders !== null && lots !== null
          ? [t('activity.coinRemovedDetail', { orders, lots, qty: market.qty(qty ?? '0') })]
          : [];
      return plain(t('activity.coinRemoved'), details);
    }
    case 'market_closed':
    case 'market_reopened': {
      // docs/grid.md#markets-change: the exchange stopped (BREAK, HALT, …) or resumed the market.
      const closed = entry.kind === 'market_closed';
      const symbol = textOf(data, 'symbol');
      const status = textOf(data, 'status');
      const title = closed
        ? symbol
          ? t('activity.marketClosed', { symbol })
          : t('activity.marketClosedPlain')
        : symbol
          ? t('activity.marketReopened', { symbol })
          : t('activity.marketReopenedPlain');
      return {
        ...plain(title, status ? [t('activity.marketStatus', { status })] : []),
        tone: closed ? 'negative' : 'neutral',
      };
    }
    case 'deal_sale_requested':
    case 'buy_cancel_requested':
    case 'deal_command_done':
      return dealText(context, entry.kind, data);
    case 'restart_summary': {
      const count = (key: string) => textOf(data, key) ?? '0';
      const counted = ['adopted', 'filled', 'orphansCanceled', 'placed', 'canceled'].some(
        (key) => textOf(data, key) !== null,
      );
      return {
        ...plain(t('activity.restart'), [
          ...(counted
            ? [
                t('activity.restartDetail', {
                  adopted: count('adopted'),
                  filled: count('filled'),
                  orphans: count('orphansCanceled'),
                  placed: count('placed'),
                  cancelled: count('canceled'),
                }),
              ]
            : []),
          ...(typeof data.converged === 'boolean'
            ? [t(data.converged ? 'activity.inSync' : 'activity.notInSync')]
            : []),
        ]),
        tone: data.converged === false ? 'negative' : 'neutral',
      };
    }
  }
};
