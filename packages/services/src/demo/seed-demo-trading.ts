import type { Exchange } from '@gridbot/contracts';
import type { CoinBot, ExchangeAccount, User } from '@gridbot/db';
import type { ServiceContext } from '../context/service-context';
import { passphraseAad, secretAad } from '../grid/exchange-clients';
import { type DemoHistory, type DemoPast, seedDemoHistory } from './seed-demo-history';

/** The demo's coins: replayed real candles on the sandbox exchange (see apps/sandbox replayMarkets). */
export const DEMO_COINS = [
  { coin: 'ETH', orderSize: '50', stepPct: '0.5', stepIncreasePct: '0.05', maxTrades: 10 },
  { coin: 'XRP', orderSize: '25', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10 },
  { coin: 'ADA', orderSize: '20', stepPct: '0.8', stepIncreasePct: '0.1', maxTrades: 8 },
] as const;

/** One demo coin bot: its coin and grid settings. */
type DemoCoin = {
  coin: string;
  orderSize: string;
  stepPct: string;
  stepIncreasePct: string;
  maxTrades: number;
};

/**
 * The demo user's account on each exchange's sandbox dialect (docs/decisions.md#sandbox-speaks-binance-demo-with-history-issue-11-item-8): what it starts with,
 * before its history's trades, and its coins (the sandbox's replayed markets): XRP runs on Binance
 * and on Bybit, ADA and ETH on Binance and on OKX, each as a coin bot of its own.
 */
export const DEMO_VENUES: Record<Exchange, { usdt: string; coins: readonly DemoCoin[] }> = {
  binance: { usdt: '10000', coins: DEMO_COINS },
  bybit: {
    usdt: '3000',
    coins: [
      { coin: 'XRP', orderSize: '20', stepPct: '0.7', stepIncreasePct: '0.1', maxTrades: 8 },
      { coin: 'LTC', orderSize: '15', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 8 },
    ],
  },
  okx: {
    usdt: '3000',
    coins: [
      { coin: 'ADA', orderSize: '15', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 8 },
      { coin: 'ETH', orderSize: '15', stepPct: '1.2', stepIncreasePct: '0.1', maxTrades: 8 },
    ],
  },
};

/** The sandbox exchange as the demo seed needs it (services never import apps). */
export type DemoSandbox = {
  /** Whether the exchange still has this key (it is gone when its state file was deleted). */
  hasApiKey(apiKey: string): boolean;
  /**
   * A new account with `usdt` free, with keys in the format of `exchange` (default Binance; OKX: a
   * UUID key, a 32-hex-digit secret and a passphrase).
   */
  createAccount(usdt: string, exchange?: Exchange): { apiKey: string; secret: string; passphrase?: string };
  /** The other exchanges whose dialect the sandbox speaks: the demo user gets an account on each. */
  venues?: readonly Exchange[];
  /**
   * The markets' past and the account's balances, for the demo's first weeks (seed-demo-history.ts).
   * Without it a fresh demo starts trading from now.
   */
  history?: DemoPast & { setBalances(apiKey: string, balances: Record<string, string>): void };
};

export type DemoTradingInput = {
  user: User;
  sandbox: DemoSandbox;
  /** Coins the sandbox lists; demo coins it lacks are skipped. */
  listedCoins: string[];
};

export type DemoTrading = {
  /** The Binance account (every venue's: `venues`). */
  account: ExchangeAccount;
  bots: Awaited<ReturnType<ServiceContext['prisma']['coinBot']['findMany']>>;
  /**
   * resumed: the stored keys still work on the sandbox, the coin bots and their history are kept
   * (reconcile them with reason 'restart'). fresh: a new sandbox account and new coin bots.
   */
  start: 'resumed' | 'fresh';
  /** The weeks of trading booked before now, when this start booked them (a sandbox with a past). */
  history?: DemoHistory;
};

type VenueTrading = Omit<DemoTrading, 'bots'> & { exchange: Exchange };

/**
 * Gives the demo user sandbox API keys and running coin bots (docs/decisions.md, demo restarts).
 * When the stored keys still open an account on the sandbox (it keeps its state beside the
 * database), everything is kept: the same coin bots, lots, orders and PnL rows. Otherwise — first
 * start, or the sandbox's state file was deleted — a fresh account with 10,000 USDT is opened and
 * the demo user's old coin bots are replaced: their lots hold coin on an account that no longer
 * exists, so they could never sell it. A fresh start books the last weeks of the sandbox's past
 * first (seed-demo-history.ts) and gives the account the balances those trades leave; its coin bots
 * start running only then, so no reconcile places an order in the middle of the history.
 */
export const seedDemoTrading = async (
  ctx: ServiceContext,
  input: DemoTradingInput,
): Promise<DemoTrading & { venues: VenueTrading[] }> => {
  const venues = [await seedDemoVenue(ctx, input, 'binance')];
  for (const exchange of input.sandbox.venues ?? []) venues.push(await seedDemoVenue(ctx, input, exchange));
  const [binance] = venues as [VenueTrading];
  const { exchange: _exchange, ...main } = binance;
  return { ...main, bots: await botsOf(ctx, input.user.id), venues };
};

/** The demo user's account and coin bots on one exchange's sandbox dialect: resumed or fresh. */
const seedDemoVenue = async (
  ctx: ServiceContext,
  input: DemoTradingInput,
  exchange: Exchange,
): Promise<VenueTrading> => {
  const stored = await ctx.prisma.exchangeAccount.findUnique({
    where: { userId_exchange: { userId: input.user.id, exchange } },
  });
  if (stored && usable(ctx, stored, input.sandbox)) {
    await knowDemoExchangeAddress(ctx, stored);
    const bots = await ensureBots(ctx, input, stored);
    // A first start that stopped before its history was written left its coin bots unstarted.
    const waiting = bots.filter((b) => !b.running && b.startedAt === null);
    if (waiting.length === 0) return { exchange, account: stored, start: 'resumed' };
    const history = await startBots(ctx, input, stored, waiting);
    return { exchange, account: stored, start: 'resumed', history };
  }
  const dropped = await ctx.prisma.coinBot.deleteMany({
    where: { userId: input.user.id, exchangeAccount: { exchange } },
  });
  if (stored) {
    ctx.log.warn(
      { userId: input.user.id, exchange, dropped: dropped.count },
      `demo: the sandbox exchange no longer has the demo user's ${exchange} account (its state file was ` +
        `deleted or replaced); ${dropped.count} coin bots and their history are replaced by new ones on a fresh account`,
    );
  }
  const keys = input.sandbox.createAccount(DEMO_VENUES[exchange].usdt, exchange);
  const account = await storeKeys(ctx, input.user, exchange, keys);
  await knowDemoExchangeAddress(ctx, account);
  const waiting = await ensureBots(ctx, input, account, false);
  const history = await startBots(ctx, input, account, waiting);
  return { exchange, account, start: 'fresh', history };
};

/**
 * The demo account's USDT deposit address on the sandbox exchange, known since a day ago: a new
 * exchange deposit address is locked for WITHDRAW_ADDRESS_LOCK_HOURS (docs/wallet.md#address-lock),
 * and the visitor should be able to try a withdrawal to the exchange at once. Asked from the sandbox
 * over HTTP like any exchange; a sandbox that does not answer leaves it to the usual lock.
 */
const knowDemoExchangeAddress = async (ctx: ServiceContext, account: ExchangeAccount) => {
  try {
    const client = await ctx.exchanges.forAccount(account.id);
    const { address } = await client.fetchDepositAddress('USDT', 'TRC20');
    const dayAgo = new Date(ctx.clock.now().getTime() - 86_400_000);
    await ctx.prisma.exchangeDepositAddress.createMany({
      data: [{ userId: account.userId, address, firstSeenAt: dayAgo, usableFrom: dayAgo }],
      skipDuplicates: true,
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'demo: the sandbox exchange did not give its deposit address');
  }
};

const botsOf = (ctx: ServiceContext, userId: number) =>
  ctx.prisma.coinBot.findMany({ where: { userId }, orderBy: { id: 'asc' } });

/** Starts coin bots created stopped: with their history first when the sandbox has a past. */
const startBots = async (
  ctx: ServiceContext,
  input: DemoTradingInput,
  account: ExchangeAccount,
  bots: CoinBot[],
) => {
  const past = input.sandbox.history;
  if (!past) {
    await ctx.prisma.coinBot.updateMany({
      where: { id: { in: bots.map((b) => b.id) } },
      data: { running: true, startedAt: ctx.clock.now() },
    });
    return undefined;
  }
  return seedDemoHistory(ctx, {
    bots,
    past,
    startingUsdt: DEMO_VENUES[account.exchange as Exchange].usdt,
    setBalances: (balances) => past.setBalances(account.apiKey, balances),
  });
};

/** The stored secret opens with our key and the sandbox still knows the API key. */
const usable = (ctx: ServiceContext, stored: ExchangeAccount, sandbox: DemoSandbox): boolean => {
  if (stored.mode !== 'sandbox' || !sandbox.hasApiKey(stored.apiKey)) return false;
  try {
    ctx.secrets.open(
      { cipher: stored.secretCipher, iv: stored.secretIv, keyId: stored.keyId },
      secretAad(stored.userId, stored.exchange),
    );
    return true;
  } catch (error) {
    ctx.log.warn({ err: error }, 'demo: the stored sandbox secret cannot be opened (secrets key changed?)');
    return false;
  }
};

const storeKeys = (
  ctx: ServiceContext,
  user: User,
  exchange: Exchange,
  keys: { apiKey: string; secret: string; passphrase?: string },
) => {
  const sealed = ctx.secrets.seal(keys.secret, secretAad(user.id, exchange));
  // OKX's passphrase, sealed like the secret with the same key (docs/security.md#exchange-keys).
  const passphrase =
    exchange === 'okx' && keys.passphrase
      ? ctx.secrets.seal(keys.passphrase, passphraseAad(user.id, exchange))
      : null;
  const data = {
    mode: 'sandbox',
    apiKey: keys.apiKey,
    secretCipher: sealed.cipher,
    secretIv: sealed.iv,
    keyId: sealed.keyId,
    passphraseCipher: passphrase?.cipher ?? null,
    passphraseIv: passphrase?.iv ?? null,
    secretTail: keys.secret.slice(-4),
    canTrade: true,
    canWithdraw: false,
    // Whitelisted to the loopback address by the launcher: no 30-day trading end.
    ipRestricted: true,
    tradingExpiresAt: null,
    checkedAt: ctx.clock.now(),
    checkProblem: null,
    savedAt: ctx.clock.now(),
  };
  return ctx.prisma.exchangeAccount.upsert({
    where: { userId_exchange: { userId: user.id, exchange } },
    create: { userId: user.id, exchange, ...data },
    update: data,
  });
};

/**
 * The demo user's coin bots: existing ones are kept as they are, listed demo coins without one get
 * one, running or (for the history to be booked first) not yet.
 */
const ensureBots = async (
  ctx: ServiceContext,
  input: DemoTradingInput,
  account: ExchangeAccount,
  running = true,
) => {
  const existing = await ctx.prisma.coinBot.findMany({
    where: { exchangeAccountId: account.id },
    orderBy: { id: 'asc' },
  });
  const have = new Set(existing.map((b) => b.coin));
  const now = ctx.clock.now();
  const created = [];
  const coins = DEMO_VENUES[account.exchange as Exchange].coins;
  for (const coin of coins.filter((c) => input.listedCoins.includes(c.coin) && !have.has(c.coin))) {
    created.push(
      await ctx.prisma.coinBot.create({
        data: {
          userId: input.user.id,
          exchangeAccountId: account.id,
          symbol: `${coin.coin}/USDT`,
          running,
          startedAt: running ? now : null,
          ...coin,
        },
      }),
    );
  }
  return [...existing, ...created];
};
