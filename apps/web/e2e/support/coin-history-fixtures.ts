import type { Deal, getCoinRating, listCoinActivity, ResponseOf } from '@gridbot/contracts';

/**
 * Sample answers that depend on the request: the coin page's deals (paged by status) and activity
 * log (paged by cursor), and the coin rating by day. Times are counted back from now, so the log
 * has a "today" and a "yesterday" like a real one. fixtures.ts parses each answer with its contract.
 */
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

/** BTC (coin bot 1) in fixtures.ts: 4 open deals and 97 closed ones, as its statistics say. */
export const OPEN_DEALS = 4;
export const CLOSED_DEALS = 97;

/** An exchange refusal as Binance words it (shown verbatim on the coin page). */
export const REJECTION_MESSAGE =
  'binance {"code":-2010,"msg":"Account has insufficient balance for requested action."}';

const fill = (
  side: 'buy' | 'sell',
  kind: Deal['buy']['kind'],
  lot: number,
  price: string,
  quantity: string,
  quote: string,
  fee: string,
  at: string,
) => ({
  side,
  kind,
  orderId: String(8_123_400 + lot * 2 + (side === 'sell' ? 1 : 0)),
  clientOrderId: `gb1a2b3c${side === 'buy' ? 'b' : 's'}${lot}x0`,
  price,
  quantity,
  quoteAmount: quote,
  fee,
  at,
});

const openDeal = (lot: number): Deal => {
  const price = `${65_800 - lot * 420}.5`;
  return {
    lotId: `open-${lot}`,
    lotNumber: lot,
    status: 'open',
    quantity: '0.00038',
    cost: '25.03',
    buy: fill('buy', lot === 1 ? 'entry' : 'averaging', lot, price, '0.00038', '25', '0.025', ago(lot * 7)),
    sell: null,
    takeProfitPrice: `${66_458 - lot * 424}.12`,
    takeProfitOnBook: { state: 'resting', since: ago(lot * 7), refusal: null },
    pnl: lot === 1 ? '-0.42' : `0.${lot}1`,
    pnlPct: lot === 1 ? '-1.68' : `${lot}.2`,
    tradeFee: null,
  };
};

/** Closed deal `n` (1 = the latest sale): the lot numbers run down from 97 + 4. */
const closedDeal = (n: number): Deal => {
  const lot = CLOSED_DEALS + OPEN_DEALS + 1 - n;
  const loss = n === 3;
  return {
    lotId: `closed-${lot}`,
    lotNumber: lot,
    status: 'closed',
    quantity: '0.00039',
    cost: '25.03',
    buy: fill('buy', 'averaging', lot, '64113.85', '0.00039', '25', '0.025', ago(n * 5 + 30)),
    sell: fill(
      'sell',
      'take_profit',
      lot,
      loss ? '63950.1' : '64755',
      '0.00039',
      loss ? '24.94' : '25.25',
      '0.0253',
      ago(n * 5),
    ),
    takeProfitPrice: null,
    takeProfitOnBook: null,
    pnl: loss ? '-0.12' : '0.2',
    pnlPct: loss ? '-0.48' : '0.8',
    tradeFee: loss ? '0' : '0.04',
  };
};

/**
 * POST /portfolio/trades: `status` open or closed, `page` and `limit` as the contract says, and
 * `cursor` (this fixture's own: the position of the next deal, as the server's cursors are opaque).
 */
export const dealsAnswer = (url: URL) => {
  const status = url.searchParams.get('status') ?? 'all';
  const page = Number(url.searchParams.get('page') ?? '1');
  const limit = Number(url.searchParams.get('limit') ?? '50');
  const cursor = url.searchParams.get('cursor');
  const open = Array.from({ length: OPEN_DEALS }, (_, index) => openDeal(OPEN_DEALS - index));
  const closed = Array.from({ length: CLOSED_DEALS }, (_, index) => closedDeal(index + 1));
  const all = status === 'open' ? open : status === 'closed' ? closed : [...open, ...closed];
  const start = cursor ? Number(cursor.slice('at-'.length)) : (page - 1) * limit;
  const hasMore = start + limit < all.length;
  return {
    data: all.slice(start, start + limit),
    page,
    limit,
    total: all.length,
    hasMore,
    nextCursor: hasMore ? `at-${start + limit}` : null,
  };
};

type Entry = ResponseOf<typeof listCoinActivity>['data'][number];

const ACTIVITY: ReadonlyArray<Omit<Entry, 'id' | 'at'> & { hours: number }> = [
  {
    hours: 0.1,
    kind: 'order_filled',
    actor: 'engine',
    data: { key: 'tp:4', side: 'sell', type: 'limit', qty: '0.00038', price: '64762.5', status: 'closed' },
  },
  {
    hours: 0.5,
    kind: 'order_rejected',
    actor: 'exchange',
    data: {
      key: 'buy:5',
      side: 'buy',
      type: 'limit',
      code: 'EXCHANGE_INSUFFICIENT_BALANCE',
      exchangeCode: '-2010',
      message: REJECTION_MESSAGE,
      price: '64113.85',
    },
  },
  {
    hours: 1,
    kind: 'order_placed',
    actor: 'engine',
    data: { key: 'tp:4', side: 'sell', type: 'limit', price: '64762.5', qty: '0.00038', quote: null },
  },
  {
    hours: 2,
    kind: 'order_cancelled',
    actor: 'engine',
    data: { key: 'buy:5', side: 'buy', type: 'limit', price: '64010', reason: 'replanned' },
  },
  {
    hours: 2.1,
    kind: 'settings_changed',
    actor: 'user',
    data: {
      from: { orderSize: '25', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 12, dry: false },
      to: { orderSize: '25', stepPct: '1.5', stepIncreasePct: '0.1', maxTrades: 15, dry: false },
    },
  },
  {
    hours: 3,
    kind: 'restart_summary',
    actor: 'engine',
    data: { adopted: 2, filled: 1, orphansCanceled: 1, placed: 3, canceled: 1, converged: true },
  },
  { hours: 5, kind: 'dry_off', actor: 'user', data: { scope: 'coin' } },
  { hours: 6, kind: 'dry_on', actor: 'fee_balance', data: { scope: 'coin' } },
  { hours: 26, kind: 'started', actor: 'user', data: null },
  { hours: 27, kind: 'paused', actor: 'license', data: null },
  {
    hours: 28,
    kind: 'order_placed',
    actor: 'engine',
    data: { key: 'entry:1', side: 'buy', type: 'market', price: null, qty: null, quote: '25' },
  },
  { hours: 29, kind: 'keys_changed', actor: 'user', data: null },
  {
    hours: 30,
    kind: 'coin_added',
    actor: 'user',
    data: {
      symbol: 'BTC/USDT',
      settings: { orderSize: '10', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10, dry: false },
    },
  },
];

/** Older fills to page through: the log is longer than one page. */
const OLDER = Array.from({ length: 40 }, (_, index) => ({
  hours: 50 + index,
  kind: 'order_filled' as const,
  actor: 'engine' as const,
  data: {
    key: `buy:${index + 2}`,
    side: 'buy',
    type: 'limit',
    qty: '0.00039',
    price: '64113.85',
    status: 'closed',
  },
}));

/** GET /portfolio/activity: newest first, `limit` entries older than `cursor`. */
export const activityAnswer = (url: URL) => {
  const limit = Number(url.searchParams.get('limit') ?? '50');
  const cursor = url.searchParams.get('cursor');
  const entries: Entry[] = [...ACTIVITY, ...OLDER].map(({ hours, ...entry }, index) => ({
    ...entry,
    id: String(1000 - index),
    at: ago(hours),
  }));
  const from = cursor ? entries.findIndex((entry) => Number(entry.id) < Number(cursor)) : 0;
  const page = from < 0 ? [] : entries.slice(from, from + limit);
  const more = from >= 0 && from + limit < entries.length;
  return { data: page, nextCursor: more ? (page.at(-1)?.id ?? null) : null };
};

const RATED = ['SOL', 'BTC', 'ETH', 'XRP', 'DOGE', 'BNB', 'ADA', 'TRX', 'LINK', 'DOT', 'TON', 'AVAX'];
const PROFITS = [
  '1.25',
  '1.14',
  '0.98',
  '0.86',
  '0.71',
  '0.64',
  '0.52',
  '0.41',
  '0.33',
  '0.27',
  '0.12',
  '-0.12',
];

/** GET /home/coin_rating: 12 coins today, none yesterday, three on the days before. */
export const ratingAnswer = (url: URL): ResponseOf<typeof getCoinRating> => {
  const day = url.searchParams.get('date') ?? 'today';
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 24 * HOUR).toISOString().slice(0, 10);
  const date = day === 'today' ? today : day === 'yesterday' ? yesterday : day;
  const coins = day === 'today' ? RATED : day === 'yesterday' ? [] : RATED.slice(9);
  return {
    date,
    coins: coins.map((coin, index) => ({
      rank: index + 1,
      coin,
      profitPct: PROFITS[index] ?? '0',
      closedTrades: 40 - index * 3,
      bots: 12 - index,
      inPortfolio: ['BTC', 'ETH', 'XRP'].includes(coin),
    })),
  };
};
