import {
  addCoin,
  backtestCoin,
  type ChartRange,
  checkKeys,
  deleteCoin,
  type EndpointDefinition,
  editCoinSettings,
  getCoin,
  getCoinChart,
  getCoinRating,
  getDailyCoinsPnl,
  getDepositAddress,
  getMatchingBonusDetail,
  getNetworkExpansion,
  getPanel,
  getPartnersOverview,
  getPortfolio,
  getProfile,
  getProfitChart,
  getReferralBonusDetail,
  getReferralLink,
  getRewards,
  getStructure,
  getWallet,
  listAddableCoins,
  listCoinActivity,
  listCoinTrades,
  listDailyPnl,
  listDealCommands,
  listMatchingBonusHistory,
  listMonthlyPnl,
  listMyPartners,
  listReferralBonusHistory,
  resetCoinSettings,
} from '@gridbot/contracts';
import type { Page } from 'playwright-core';
import { activityAnswer, dealsAnswer, ratingAnswer } from './coin-history-fixtures';

/**
 * Sample answers for the feature endpoints that still answer 501, so the screens can be seen and
 * checked with data. Each one is parsed with its contract's response schema when registered: a
 * fixture that drifts from the contract fails the test instead of rendering nonsense.
 */
const at = '2025-03-14T09:30:00.000Z';

const settings = { orderSize: '25', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 12, dry: false };
const stats = {
  unrealizedPnl: '-3.41',
  realizedPnl: '184.27',
  openDeals: 4,
  openQty: '0.00152',
  invested: '100.4',
  // Σc / Σq: an average, off the tick until it is shown (docs/conventions.md#money-and-numbers).
  avgPrice: '66052.628471930112',
  startDate: '2025-01-02T10:00:00.000Z',
  profitableTrades: 97,
  closedTrades: 97,
  tradeFeesPaid: '36.85',
  run: {
    runningSince: '2025-01-02T10:00:00.000Z',
    runtimeSeconds: 70 * 86_400 + 23 * 3600 + 30 * 60,
    returnPct: '61.42',
    annualizedPct: '315.84',
  },
};
/** Each sample market's price tick and lot step, as Binance lists them (PRICE_FILTER, LOT_SIZE). */
const MARKET_STEPS: Record<string, { priceTick: string; qtyStep: string }> = {
  BTC: { priceTick: '0.01', qtyStep: '0.00001' },
  ETH: { priceTick: '0.01', qtyStep: '0.0001' },
  XRP: { priceTick: '0.0001', qtyStep: '0.1' },
  SOL: { priceTick: '0.01', qtyStep: '0.001' },
};
const bookCounts = (planned: number) => ({ planned, resting: planned, placing: 0, refused: 0, missing: 0 });
/** Every planned order rests on the exchange (docs/grid.md#on-the-exchange): 4 take profits and the next buy. */
const bookOnBook = { status: 'on_book' as const, takeProfits: bookCounts(4), buys: bookCounts(1) };
const bookNone = { status: 'none' as const, takeProfits: bookCounts(0), buys: bookCounts(0) };
const resting = { state: 'resting' as const, since: at, refusal: null };
/** The keys the sample user saved (Binance). */
const savedKeys = {
  exchange: 'binance' as const,
  apiKeyMasked: 'AbCd…WxYz',
  secretKeyMasked: '••••WxYz',
  permissions: { spot: true, withdraw: false },
  ipRestricted: true,
  tradingExpiresAt: null,
  savedAt: at,
  lastCheckedAt: at,
  connected: true,
};
const coin = (name: string, id: number, state: 'running' | 'waiting' | 'drying' | 'paused', pnl: string) => ({
  coinUserId: id,
  coin: name,
  exchange: 'binance' as const,
  symbol: `${name}/USDT`,
  addedAt: '2025-01-02T10:00:00.000Z',
  settings,
  running: state !== 'paused',
  state,
  dryReason: state === 'drying' ? ('coin' as const) : null,
  lastPrice: name === 'BTC' ? '65420.5' : name === 'ETH' ? '3512.18' : '0.5821',
  priceTick: MARKET_STEPS[name]?.priceTick ?? null,
  qtyStep: MARKET_STEPS[name]?.qtyStep ?? null,
  committedCapital: '300',
  periodPnl: pnl,
  periodPnlPct: '0.84',
  stats,
  lastError: null,
  marketClosed: null,
  book: state === 'paused' ? bookNone : bookOnBook,
});
const coins = [
  coin('BTC', 1, 'running', '2.52'),
  coin('ETH', 2, 'waiting', '1.18'),
  coin('XRP', 3, 'drying', '-0.35'),
];
const measures = {
  personalVolume: '600',
  teamVolume: '4200',
  generation1Volume: '600',
  generation2Volume: '1800',
  generation3Volume: '1200',
  newPersonalRegistrations: 3,
  newTeamRegistrations: 11,
  freeLicenseNonTrading: 4,
  activatedLicenses: 6,
};
const partnerRef = (uid: number, firstName: string, username: string) => ({ uid, firstName, username });
const license = {
  level: 'PRO2',
  rank: 2,
  paid: true,
  activeFrom: '2025-01-02T10:00:00.000Z',
  activeUntil: '2026-01-02T10:00:00.000Z',
  expired: false,
  daysLeft: 294,
  balanceLimit: '7000',
  coins: 20,
  matchingGenerations: 2,
  renewal: {
    available: false,
    availableFrom: '2025-12-03T10:00:00.000Z',
    price: '240',
    discountPct: '20',
    newActiveUntil: null,
  },
};
const offer = (level: string, rank: number, price: string, limit: string, coinsLimit: number) => ({
  level,
  rank,
  yearlyPrice: price,
  priceToPay: rank > 2 ? String(Number(price) - 300) : price,
  balanceLimit: limit,
  coins: coinsLimit,
  matchingGenerations: Math.min(rank, 3),
  activeUntil: '2026-01-02T10:00:00.000Z',
  current: rank === 2,
  available: rank > 2,
});
/** BTC's ladder as the API sends it: every price on the tick (0.01), every quantity on the lot step (0.00001). */
const ladder = {
  lastPrice: '65420.5',
  ...MARKET_STEPS.BTC!,
  openLots: 4,
  maxTrades: 12,
  waiting: false,
  nextEntry: null,
  buys: [
    {
      lotNumber: 105,
      position: 5,
      price: '64113.85',
      orderSize: '25',
      quantity: '0.00038',
      stepPct: '1.3',
      resting: true,
      onBook: resting,
    },
    {
      lotNumber: 106,
      position: 6,
      price: '63152.1',
      orderSize: '25',
      quantity: '0.00039',
      stepPct: '1.4',
      resting: false,
      onBook: null,
    },
  ],
  takeProfits: [
    {
      lotId: 'l4',
      lotNumber: 104,
      buyPrice: '64958.2',
      price: '65607.78',
      quantity: '0.00038',
      expectedPnl: '0.2',
      resting: true,
      onBook: resting,
    },
    {
      lotId: 'l3',
      lotNumber: 103,
      buyPrice: '65771.9',
      price: '66429.6',
      quantity: '0.00038',
      expectedPnl: '0.2',
      resting: true,
      onBook: resting,
    },
  ],
  capitalAtLimit: '412.38',
  coverageDropPct: '18.6',
  plannedAt: at,
};
/**
 * A 30-day backtest of BTC on 5-minute candles (docs/grid.md#what-if-backtest): closes drawn as a
 * wave around 65 000 and a buy or sell at every sixth point. Figures are the answer's, not derived.
 */
const BACKTEST_FROM = Date.parse('2025-02-12T00:00:00.000Z');
const BACKTEST_STEP_MS = 6 * 60 * 60 * 1000;
const backtestPrices = Array.from({ length: 120 }, (_, index) => ({
  time: new Date(BACKTEST_FROM + index * BACKTEST_STEP_MS).toISOString(),
  close: (65_000 + 1_800 * Math.sin(index / 9) - index * 6).toFixed(2),
}));
const backtest = {
  coin: 'BTC',
  window: '30d_5m',
  from: '2025-02-12T00:00:00.000Z',
  to: '2025-03-14T00:00:00.000Z',
  candles: 8640,
  feePct: '0.1',
  realizedPnl: '18.42',
  realizedPnlPct: '4.47',
  closedDeals: 74,
  profitableDeals: 74,
  buys: 78,
  sells: 74,
  openLots: 4,
  openQty: '0.00152',
  unrealizedPnl: '-3.41',
  lastClose: backtestPrices.at(-1)?.close ?? null,
  ...MARKET_STEPS.BTC!,
  maxOpenLots: 9,
  capitalAtLimit: '412.38',
  capitalUsed: '228.6',
  worstDrawdown: { usdt: '-21.37', pct: '-5.18', at: '2025-02-27T06:00:00.000Z' },
  fills: backtestPrices
    .filter((_, index) => index % 6 === 3)
    .map((point, index) => ({
      time: point.time,
      side: index % 2 === 0 ? 'buy' : 'sell',
      price: point.close,
      qty: '0.000385',
    })),
  fillsTruncated: false,
  prices: backtestPrices,
};
/** Candle size and count of each chart range, as the API answers them. */
const CHART_RANGE_SHAPE: Record<ChartRange, { size: string; ms: number; count: number }> = {
  '1d': { size: '5m', ms: 300_000, count: 288 },
  '7d': { size: '1h', ms: 3_600_000, count: 168 },
  '30d': { size: '4h', ms: 14_400_000, count: 180 },
};

/**
 * A coin chart around the BTC sample price: a wave of candles ending at `at`, three fills (two
 * buys, a sell) on closes of the range, and the sample ladder's next buy and two take profits.
 */
export const coinChartFixture = (coin = 'BTC', range: ChartRange = '1d') => {
  const shape = CHART_RANGE_SHAPE[range];
  const end = Date.parse(at) - (Date.parse(at) % shape.ms);
  const start = end - (shape.count - 1) * shape.ms;
  let previous = 65_200;
  const candles = Array.from({ length: shape.count }, (_, i) => {
    const close = 65_350 + 700 * Math.sin(i / 23) + 220 * Math.sin(i / 5);
    const open = previous;
    previous = close;
    return {
      time: new Date(start + i * shape.ms).toISOString(),
      open: open.toFixed(2),
      high: (Math.max(open, close) + 45).toFixed(2),
      low: (Math.min(open, close) - 45).toFixed(2),
      close: close.toFixed(2),
    };
  });
  const fill = (index: number, side: 'buy' | 'sell', lotNumber: number) => ({
    time: new Date(Date.parse(candles[index]!.time) + 60_000).toISOString(),
    side,
    kind: side === 'sell' ? ('take_profit' as const) : ('averaging' as const),
    price: candles[index]!.close,
    qty: '0.00038',
    lotNumber,
  });
  return {
    coin,
    symbol: `${coin}/USDT`,
    range,
    candleSize: shape.size,
    from: candles[0]!.time,
    to: at,
    candles,
    fills: [
      fill(Math.floor(shape.count * 0.25), 'buy', 3),
      fill(Math.floor(shape.count * 0.55), 'buy', 4),
      fill(Math.floor(shape.count * 0.8), 'sell', 2),
    ],
    fillsTruncated: false,
    ladder: { nextBuy: ladder.buys[0], takeProfits: ladder.takeProfits },
    lastPrice: '65420.5',
    ...(MARKET_STEPS[coin] ?? { priceTick: null, qtyStep: null }),
  };
};
const TXID = 'a3f1c9e2b7d84f0e9c6a5b4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f';
const WITHDRAW_TO = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const transaction = (
  id: string,
  type: string,
  amount: string,
  status: string,
  extra: {
    note?: string;
    reason?: 'below_minimum' | 'below_minimum_combined';
    createdAt?: string;
    txid?: string;
    address?: string;
    networkFee?: string;
  } = {},
) => ({
  id,
  type,
  status,
  balance: type === 'deposit_balance' || type === 'trade_fee' ? 'fee' : 'main',
  amount,
  networkFee: extra.networkFee ?? null,
  txid: extra.txid ?? null,
  address: extra.address ?? null,
  counterparty:
    type === 'transfer_in'
      ? { uid: 100_042, username: 'ivan_t' }
      : type === 'transfer_out'
        ? { uid: 100_077, username: null }
        : type.endsWith('_bonus')
          ? { uid: 100_011, username: 'pavel_k' }
          : null,
  note: extra.note ?? null,
  reason: extra.reason ?? null,
  createdAt: extra.createdAt ?? at,
  updatedAt: extra.createdAt ?? at,
});
/** A withdrawal on its way to the saved address. */
const withdrawal = (id: string, status: string, amount: string, receives: string, txid: string | null) => ({
  id,
  type: 'withdraw',
  status,
  amount,
  networkFee: '1',
  receives,
  address: WITHDRAW_TO,
  txid,
  reason: null,
  waitingReason: null,
  reviewReason: status === 'pending' ? 'over the 24 h allowance' : null,
  releaseAt: null,
  createdAt: at,
  updatedAt: at,
});
const days = Array.from({ length: 30 }, (_, index) => {
  const day = String(index + 1).padStart(2, '0');
  const pnl = index % 7 === 3 ? '-1.2' : `${(index % 5) + 2}.${index % 10}5`;
  return { date: `2025-03-${day}`, realizedPnl: pnl, cumulativePnl: `${index * 3}.5`, closedTrades: 3 };
});

/** Coin profit per period: a longer period earns more, and ETH leads over the week. */
const PERIOD_PNL: Record<string, [string, string, string]> = {
  day: ['2.52', '1.18', '-0.35'],
  week: ['9.4', '12.05', '1.2'],
  month: ['38.1', '30.6', '4.75'],
  year: ['184.27', '150.2', '22.4'],
  all: ['184.27', '150.2', '22.4'],
};

/** A fixed answer, or one computed from the request's URL (its query decides the page or period). */
type Answer = unknown | ((url: URL) => unknown);

const FIXTURES: ReadonlyArray<[EndpointDefinition, Answer]> = [
  [
    getPanel,
    {
      pnl: {
        today: '12.48',
        todayDate: at.slice(0, 10),
        todayPct: '0.62',
        total: '1834.2',
        unrealized: '-14.32',
        run: {
          runningSince: '2024-12-20T08:00:00.000Z',
          runtimeSeconds: 84 * 86_400 + 1 * 3600 + 30 * 60,
          returnPct: '87.34',
          annualizedPct: '379.23',
        },
      },
      running: true,
      allRunning: false,
      dryAll: false,
      openDeals: 9,
      committedCapital: '2100',
      coins: coins.map((c) => ({
        coinUserId: c.coinUserId,
        coin: c.coin,
        exchange: c.exchange,
        running: c.running,
        // Drying by its own switch: the panel offers to activate it.
        dry: c.dryReason === 'coin',
        state: c.state,
        dryReason: c.dryReason,
        lastPrice: c.lastPrice,
        openDeals: 3,
        maxTrades: 12,
        pnlToday: c.periodPnl,
        realizedPnl: '184.27',
        unrealizedPnl: '-3.41',
        lastError: null,
        book: c.book,
      })),
      license: {
        level: 'PRO2',
        activeUntil: '2026-01-02T10:00:00.000Z',
        expired: false,
        daysLeft: 294,
        balanceLimit: '7000',
        coinsLimit: 20,
        renewalAvailable: false,
      },
      feeBalance: '48.60512',
      exchange: { name: 'binance', connected: true },
      blockers: [],
      updatedAt: at,
    },
  ],
  [getProfitChart, { data: days }],
  [
    getPortfolio,
    (url: URL) => {
      const period = url.searchParams.get('period') ?? 'day';
      const pnl = PERIOD_PNL[period] ?? PERIOD_PNL.day;
      return {
        period,
        dryAll: false,
        coins: coins.map((c, index) => ({ ...c, periodPnl: pnl?.[index] ?? '0' })),
        totals: {
          committedCapital: '2100',
          invested: '1240.5',
          unrealizedPnl: '-14.32',
          realizedPnl: '1834.2',
          periodPnl: period === 'day' ? '12.48' : '45.2',
          periodPnlPct: period === 'day' ? '0.59' : '2.15',
          openDeals: 9,
        },
        limits: { coinsUsed: 3, coinsLimit: 20, balanceLimit: '7000' },
      };
    },
  ],
  [getCoin, { period: 'day', coin: coins[0], ladder }],
  [listCoinTrades, dealsAnswer],
  [listCoinActivity, activityAnswer],
  // The coin's deal commands (docs/grid.md#deal-controls): none asked yet.
  [listDealCommands, { commands: [] }],
  [getCoinRating, ratingAnswer],
  [editCoinSettings, { saved: false, coin: coins[0], ladder, warnings: [] }],
  [resetCoinSettings, { saved: true, coin: coins[0], ladder }],
  [addCoin, { coin: { ...coin('SOL', 4, 'paused', '0'), lastPrice: '178.31' } }],
  [deleteCoin, { coin: 'BTC', cancelledOrders: 3, leftOnExchange: { lots: 4, quantity: '0.00152' } }],
  [backtestCoin, backtest],
  [getCoinChart, coinChartFixture()],
  [
    listAddableCoins,
    {
      exchange: 'binance',
      accounts: ['binance'],
      quote: 'USDT',
      keysConnected: true,
      coinsUsed: 3,
      coinsLimit: 20,
      coins: [
        {
          coin: 'BTC',
          symbol: 'BTC/USDT',
          lastPrice: '65420.5',
          priceTick: '0.01',
          change24hPct: '1.82',
          quoteVolume24h: '1820000000',
          minOrderUsdt: '5',
          maxOpenOrders: 200,
          inPortfolio: true,
        },
        {
          coin: 'SOL',
          symbol: 'SOL/USDT',
          lastPrice: '178.31',
          priceTick: '0.01',
          change24hPct: '-2.4',
          quoteVolume24h: '610000000',
          minOrderUsdt: '5',
          maxOpenOrders: 200,
          inPortfolio: false,
        },
        {
          coin: 'BNB',
          symbol: 'BNB/USDT',
          lastPrice: '592.1',
          priceTick: '0.01',
          change24hPct: '0.31',
          quoteVolume24h: '240000000',
          minOrderUsdt: '5',
          maxOpenOrders: 200,
          inPortfolio: false,
        },
        {
          coin: 'DOGE',
          symbol: 'DOGE/USDT',
          lastPrice: '0.1623',
          priceTick: '0.00001',
          change24hPct: '4.05',
          quoteVolume24h: '190000000',
          minOrderUsdt: '5',
          maxOpenOrders: 200,
          inPortfolio: false,
        },
      ],
    },
  ],
  [
    getWallet,
    {
      balances: { main: '1250.75', fee: '48.60512', held: '150' },
      network: 'TRC20',
      token: 'USDT',
      depositAddress: 'TXYZ1234567890abcdefghijkLMNopqRST',
      withdrawAddress: WITHDRAW_TO,
      withdrawAddressUsableFrom: null,
      allowance: { limit: '1000', used: '150', left: '850' },
      frozen: null,
      releaseDelayS: 120,
      minDeposit: '11',
      minWithdraw: '11',
      withdrawFee: '1',
      pendingWithdrawals: [
        withdrawal('w1', 'pending', '100', '99', null),
        withdrawal('w2', 'broadcast', '50', '49', TXID),
      ],
      transactions: {
        items: [
          transaction('t1', 'deposit', '250', 'pending', {
            txid: TXID,
            address: 'TXYZ1234567890abcdefghijkLMNopqRST',
          }),
          transaction('t2', 'trade_fee', '-0.421337', 'confirmed', { note: 'BTC' }),
          transaction('t3', 'withdraw', '-100', 'pending', { address: WITHDRAW_TO, networkFee: '1' }),
          transaction('t4', 'referral_bonus', '30', 'confirmed', { createdAt: '2025-03-13T18:05:00.000Z' }),
          transaction('t5', 'matching_bonus', '4.2', 'confirmed', { createdAt: '2025-03-13T00:10:00.000Z' }),
          transaction('t6', 'transfer_in', '25', 'confirmed', { createdAt: '2025-03-12T15:40:00.000Z' }),
          transaction('t7', 'transfer_out', '-10', 'confirmed', { createdAt: '2025-03-12T11:00:00.000Z' }),
          transaction('t8', 'deposit_balance', '50', 'confirmed', { createdAt: '2025-03-11T09:00:00.000Z' }),
          transaction('t11', 'license_purchase', '-100', 'confirmed', {
            note: 'PRO1',
            createdAt: '2025-03-11T08:30:00.000Z',
          }),
          transaction('t12', 'withdraw_exchange', '-40', 'failed', {
            address: WITHDRAW_TO,
            networkFee: '1',
            createdAt: '2025-03-11T08:00:00.000Z',
          }),
          transaction('t9', 'deposit', '500', 'credited', {
            txid: TXID,
            address: 'TXYZ1234567890abcdefghijkLMNopqRST',
            createdAt: '2025-03-10T08:00:00.000Z',
          }),
          transaction('t10', 'deposit', '5', 'not_credited', {
            reason: 'below_minimum',
            txid: TXID,
            address: 'TXYZ1234567890abcdefghijkLMNopqRST',
            createdAt: '2025-03-10T07:00:00.000Z',
          }),
        ],
        page: 1,
        limit: 10,
        total: 14,
        hasMore: true,
        nextCursor: 'fixture-page-2',
      },
    },
  ],
  [
    getDepositAddress,
    {
      depositAddress: 'TXYZ1234567890abcdefghijkLMNopqRST',
      network: 'TRC20',
      token: 'USDT',
      contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      minDeposit: '11',
      confirmations: 19,
    },
  ],
  [
    getReferralLink,
    {
      referralCode: 'k7m2p9qa',
      miniAppLink: 'https://t.me/gridbot_demo_bot?startapp=ref_k7m2p9qa',
      botLink: 'https://t.me/gridbot_demo_bot?start=ref_k7m2p9qa',
      shareText: 'Join me on GridBot',
    },
  ],
  [
    checkKeys,
    {
      hasKeys: true,
      connected: true,
      exchange: 'binance',
      permissions: { spot: true, withdraw: false },
      usdtBalance: '1250.5',
      problem: null,
      checkedAt: at,
      key: savedKeys,
      egress: { ips: ['203.0.113.7', '203.0.113.8'], source: 'config' },
      accounts: ['binance'],
    },
  ],
  [
    getProfile,
    {
      uid: 100_006,
      telegramId: '7000000001',
      username: 'maria_1',
      firstName: 'Maria',
      lastName: 'Ivanova',
      language: 'en',
      registeredAt: '2025-01-02T10:00:00.000Z',
      sponsor: partnerRef(100_001, 'Oleg', 'oleg_pro'),
      license,
      licenseOffers: [
        offer('FREE', 0, '0', '300', 3),
        offer('PRO1', 1, '100', '2000', 10),
        offer('PRO2', 2, '300', '7000', 20),
        offer('PRO3', 3, '600', '20000', 30),
        offer('PRO4', 4, '1200', '50000', 50),
      ],
      tradingPairs: { used: 3, limit: 20 },
      apiKey: savedKeys,
      apiKeys: [savedKeys],
      notifications: {
        enabled: true,
        fills: false,
        dailyReport: true,
        tradingAlerts: true,
        wallet: true,
        bonuses: true,
        license: true,
      },
    },
  ],
  [
    getPartnersOverview,
    {
      sponsor: { ...partnerRef(100_001, 'Oleg', 'oleg_pro'), licenseLevel: 'PRO3' },
      referralCode: 'k7m2p9qa',
      referralLink: 'https://t.me/gridbot_demo_bot?startapp=ref_k7m2p9qa',
      team: { line1: 7, line2: 15, line3: 22, total: 51 },
      rewards: { today: '12.5', currentMonth: '348.9', total: '2140.35' },
      ranking: { month: '2025-03', newPro1Partners: 1, required: 2, qualified: false },
      month: '2025-03',
      measures,
    },
  ],
  [
    listMyPartners,
    {
      period: 'current_month',
      month: '2025-03',
      range: { from: '2025-03-01', to: '2025-03-31' },
      measures,
      partners: {
        items: [
          {
            ...partnerRef(100_011, 'Pavel', 'pavel_k'),
            line: 1,
            licenseLevel: 'PRO1',
            licenseActive: true,
            registeredAt: at,
            trading: true,
            directPartners: 3,
            teamSize: 8,
            personalVolume: '100',
          },
          {
            ...partnerRef(100_012, 'Lena', 'lena_trade'),
            line: 1,
            licenseLevel: 'FREE',
            licenseActive: true,
            registeredAt: at,
            trading: false,
            directPartners: 0,
            teamSize: 0,
            personalVolume: '0',
          },
          {
            ...partnerRef(100_013, 'Wei', 'wei_l'),
            line: 2,
            licenseLevel: 'PRO2',
            licenseActive: true,
            registeredAt: at,
            trading: true,
            directPartners: 1,
            teamSize: 2,
            personalVolume: '300',
          },
        ],
        page: 1,
        limit: 10,
        total: 3,
        hasMore: false,
        nextCursor: null,
      },
    },
  ],
  [
    getStructure,
    [
      {
        user_id: 100_011,
        username: 'pavel_k',
        firstName: 'Pavel',
        line: 1,
        licenseLevel: 'PRO1',
        licenseActive: true,
        registeredAt: at,
        directPartners: 3,
        teamSize: 8,
        hasChildren: true,
        children: [],
      },
      {
        user_id: 100_012,
        username: 'lena_trade',
        firstName: 'Lena',
        line: 1,
        licenseLevel: 'FREE',
        licenseActive: true,
        registeredAt: at,
        directPartners: 0,
        teamSize: 0,
        hasChildren: false,
        children: [],
      },
    ],
  ],
  [
    getRewards,
    {
      period: 'today',
      range: { from: '2025-03-14', to: '2025-03-14' },
      total: '12.5',
      referral: '9',
      matching: '3.5',
      networkExpansion: '0',
      days: [{ date: '2025-03-14', referral: '9', matching: '3.5', networkExpansion: '0', total: '12.5' }],
    },
  ],
  [
    getReferralBonusDetail,
    {
      date: '2025-03-14',
      total: '30',
      items: [
        {
          from: partnerRef(100_011, 'Pavel', 'pavel_k'),
          line: 1,
          licenseLevel: 'PRO1',
          purchaseAmount: '100',
          ratePct: '30',
          amount: '30',
          paid: true,
          at,
        },
      ],
    },
  ],
  [
    listReferralBonusHistory,
    {
      items: [{ date: '2025-03-14', amount: '30', payments: 1, status: 'credited' }],
      page: 1,
      limit: 10,
      total: 1,
      hasMore: false,
      nextCursor: null,
      totalAmount: '1240',
    },
  ],
  [
    getMatchingBonusDetail,
    {
      date: '2025-03-14',
      status: 'pending',
      matchingGenerations: 2,
      total: '3.5',
      items: [
        {
          from: partnerRef(100_011, 'Pavel', 'pavel_k'),
          generation: 1,
          tradeFee: '35',
          ratePct: '10',
          amount: '3.5',
        },
      ],
    },
  ],
  [
    listMatchingBonusHistory,
    {
      items: [{ date: '2025-03-13', amount: '4.1', payments: 6, status: 'credited' }],
      page: 1,
      limit: 10,
      total: 1,
      hasMore: false,
      nextCursor: null,
      totalAmount: '210.4',
    },
  ],
  [
    getNetworkExpansion,
    {
      month: '2025-03',
      requiredPartners: 2,
      qualifyingPartners: 1,
      qualified: false,
      licenseQualifies: true,
      ratePct: '5',
      pool: '1800',
      projectedBonus: '0',
      payoutDate: '2025-04-01',
      registrations: [
        {
          ...partnerRef(100_011, 'Pavel', 'pavel_k'),
          line: 1,
          registeredAt: at,
          licenseLevel: 'PRO1',
          licensePurchase: '100',
          qualifying: true,
        },
      ],
      history: [
        {
          month: '2025-02',
          qualified: true,
          qualifyingPartners: 3,
          pool: '2400',
          bonus: '120',
          paidAt: '2025-03-01T00:00:00.000Z',
        },
      ],
    },
  ],
  [
    listDailyPnl,
    {
      items: days
        .slice(-5)
        .reverse()
        .map((day) => ({
          date: day.date,
          realizedPnl: day.realizedPnl,
          tradeFee: '0.5',
          closedTrades: 3,
          profitableTrades: 3,
        })),
      page: 1,
      limit: 10,
      total: 5,
      hasMore: false,
      nextCursor: null,
    },
  ],
  [
    listMonthlyPnl,
    {
      items: [
        {
          month: '2025-03',
          realizedPnl: '312.4',
          tradeFee: '62.5',
          closedTrades: 120,
          profitableTrades: 120,
          tradingDays: 14,
        },
        {
          month: '2025-02',
          realizedPnl: '498.1',
          tradeFee: '99.6',
          closedTrades: 188,
          profitableTrades: 188,
          tradingDays: 28,
        },
      ],
      page: 1,
      limit: 10,
      total: 2,
      hasMore: false,
      nextCursor: null,
    },
  ],
  [
    getDailyCoinsPnl,
    {
      date: '2025-03-14',
      realizedPnl: '12.48',
      tradeFee: '2.5',
      coins: [
        { coin: 'BTC', realizedPnl: '8.1', tradeFee: '1.6', closedTrades: 5, profitableTrades: 5, buys: 4 },
      ],
    },
  ],
];

const pattern = (path: string) =>
  new RegExp(`^${path.replace(/\/$/, '').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);

/** The sample answer of one endpoint, parsed by its contract: a test changes a copy of it. */
export const fixtureOf = (endpoint: EndpointDefinition): Record<string, unknown> => {
  const fixture = FIXTURES.find(([candidate]) => candidate.id === endpoint.id);
  if (!fixture || typeof fixture[1] === 'function') throw new Error(`no fixed answer for ${endpoint.id}`);
  return structuredClone(endpoint.response.parse(fixture[1])) as Record<string, unknown>;
};

/** Answers the feature endpoints from the fixtures (static paths before `:param` ones). */
export const serveFixtures = async (page: Page) => {
  const routes = FIXTURES.map(([endpoint, answer]) => {
    const fixed = typeof answer === 'function' ? null : endpoint.response.parse(answer);
    return {
      endpoint,
      bodyFor: (url: URL) => fixed ?? endpoint.response.parse((answer as (url: URL) => unknown)(url)),
      matcher: pattern(endpoint.path),
    };
  }).sort((a, b) => Number(a.endpoint.path.includes(':')) - Number(b.endpoint.path.includes(':')));
  await page.route(
    (url) => routes.some((route) => route.matcher.test(url.pathname)),
    (route) => {
      const request = route.request();
      const accept = request.headers().accept ?? '';
      const url = new URL(request.url());
      const match = routes.find(
        (r) => r.endpoint.method === request.method() && r.matcher.test(url.pathname),
      );
      if (!match || !accept.includes('application/json')) return route.fallback();
      return route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(match.bodyFor(url)),
      });
    },
  );
};
