import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@gridbot/db';
import { createTestDb } from '@gridbot/db/testing';
import { tradeFeeMicro } from '@gridbot/domain';
import {
  createMemoryBudgetStore,
  createVenueBudget,
  type ExchangeClientOptions,
  type ExchangeOrder,
} from '@gridbot/exchange';
import type { JobQueue } from '@gridbot/jobs';
import { balanceOf, checkInvariants, toMicro, userAccountCode } from '@gridbot/ledger';
import { startSandboxExchange } from '@gridbot/sandbox';
import {
  createExchangeClients,
  createRedisBudgetStore,
  createSecretBox,
  fundWallet,
  passphraseAad,
  reconcileCoinBot,
  type ServiceContext,
  secretAad,
  tradeFeeKey,
} from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import Decimal from 'decimal.js';
import { Redis } from 'ioredis';
import { expect } from 'vitest';

export type Harness = Awaited<ReturnType<typeof createGridHarness>>;

/**
 * A real database, the sandbox exchange over HTTP (ccxt's class of the venue talking to its dialect), one user
 * with API keys and one XRP/USDT coin bot: N = 3, S = 10 USDT, step 1 %, step increase 0.1 %.
 */
export const createGridHarness = async (
  settings: {
    maxTrades?: number;
    stepPct?: string;
    usdt?: string;
    stepSize?: string;
    feePct?: string;
    /** The user's fee balance (USDT; default 100): at 0 the engine keeps the coin dry. */
    feeBalance?: string;
    /** How long the clients use loaded markets before fetching them again (default: the adapter's). */
    marketsTtlMs?: number;
    /** The venue of the exchange account, spoken by the sandbox's dialect of it (default binance). */
    venue?: 'binance' | 'bybit' | 'okx';
    /** Bybit's and OKX's private stream heartbeat and silence (default the venue's). */
    privateStreamTiming?: ExchangeClientOptions['privateStreamTiming'];
  } = {},
) => {
  const db = await createTestDb();
  const prisma: PrismaClient = db.prisma;
  const sandbox = await startSandboxExchange({
    ...(settings.feePct ? { feePct: settings.feePct } : {}),
    markets: [
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: settings.stepSize ?? '0.01',
        minNotional: '5',
        feed: { kind: 'random-walk', start: '1', seed: 7 },
        // The grid tests walk the price through each order and expect it filled: whole fills, one
        // trade per order (partial fills are played with fillPart, grid-partial-take-profit).
        liquidity: 'infinite',
      },
    ],
  });
  sandbox.control.setPrice('XRP/USDT', '1');
  const keys = sandbox.control.createAccount({ balances: { USDT: settings.usdt ?? '1000' } });
  const secretKey = randomBytes(32);
  const secretBox = createSecretBox([secretKey]);
  const user = await prisma.user.create({
    data: { telegramId: 42n, username: 'grid', usernameKey: 'grid', firstName: 'Grid', referralCode: 'grid' },
  });
  // The platform's trading fee is paid from this balance; the engine buys only while it is > 0.
  const feeBalance = settings.feeBalance ?? '100';
  if (feeBalance !== '0') {
    await fundWallet(prisma, {
      userId: user.id,
      deposit: feeBalance,
      fee: feeBalance,
      key: `grid:${user.id}`,
    });
  }
  const venue = settings.venue ?? 'binance';
  const sealed = secretBox.seal(keys.secret, secretAad(user.id, venue));
  // OKX's third credential, sealed as the API sealing it would (exchange-clients.ts opens it).
  const passphrase = venue === 'okx' ? secretBox.seal(keys.passphrase, passphraseAad(user.id, venue)) : null;
  const account = await prisma.exchangeAccount.create({
    data: {
      userId: user.id,
      exchange: venue,
      mode: 'sandbox',
      apiKey: keys.apiKey,
      secretCipher: sealed.cipher,
      secretIv: sealed.iv,
      keyId: sealed.keyId,
      ...(passphrase ? { passphraseCipher: passphrase.cipher, passphraseIv: passphrase.iv } : {}),
      canTrade: true,
    },
  });
  const bot = await prisma.coinBot.create({
    data: {
      userId: user.id,
      exchangeAccountId: account.id,
      coin: 'XRP',
      symbol: 'XRP/USDT',
      orderSize: '10',
      stepPct: settings.stepPct ?? '1',
      stepIncreasePct: '0.1',
      maxTrades: settings.maxTrades ?? 3,
      running: true,
      startedAt: new Date(),
    },
  });
  // With Redis, requests spend the shared per-IP budget exactly as in distributed mode.
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  const budgetPrefix = `test-${randomBytes(4).toString('hex')}:`;
  const budget = createVenueBudget({
    store: redis ? createRedisBudgetStore(redis, budgetPrefix) : createMemoryBudgetStore(),
  });
  const clients = createExchangeClients({
    prisma,
    secretBox,
    sandboxUrl: sandbox.url,
    sandboxDialectUrls: { bybit: sandbox.bybitUrl, okx: sandbox.okxUrl },
    recvWindowMs: 1000,
    budget,
    ...(settings.marketsTtlMs ? { marketsTtlMs: settings.marketsTtlMs } : {}),
    ...(settings.privateStreamTiming ? { privateStreamTiming: settings.privateStreamTiming } : {}),
  });
  /** The service context of one worker process (`owner` is its instance id, the lease owner). */
  // One context per worker (owner) unless a test brings its own queue or settings, as a worker
  // process builds its context once.
  const contexts = new Map<string, ServiceContext>();
  const contextFor = (
    owner = 'test-worker',
    queue?: JobQueue,
    env?: Record<string, string>,
  ): ServiceContext => {
    const shared = !queue && !env;
    const known = shared ? contexts.get(owner) : undefined;
    if (known) return known;
    const ctx = createTestContext({
      prisma,
      exchanges: clients,
      secretBox,
      instanceId: owner,
      ...(queue ? { queue } : {}),
      ...(env ? { env } : {}),
    });
    if (shared) contexts.set(owner, ctx);
    return ctx;
  };

  const salt = await contextFor().installationSalt();

  const openOnExchange = async (): Promise<ExchangeOrder[]> => {
    const client = await clients.forAccount(account.id);
    return client.fetchOpenOrders('XRP/USDT');
  };

  return {
    prisma,
    salt,
    /** The test database's URL (PostgreSQL only): other processes can share it. */
    databaseUrl: db.url,
    secretKeyHex: secretKey.toString('hex'),
    sandbox,
    keys,
    bot,
    account,
    clients,
    contextFor,
    reconcile: (owner?: string) => reconcileCoinBot(contextFor(owner), { coinBotId: bot.id }),
    setPrice: (price: string) => sandbox.control.setPrice('XRP/USDT', price),
    openOnExchange,
    /** Exchange open orders as "side@price" strings, sorted (easy to read in assertions). */
    ladder: async () =>
      (await openOnExchange()).map((o) => `${o.side}@${new Decimal(o.price ?? 0).toFixed(4)}`).sort(),
    openLots: () =>
      prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: null }, orderBy: { seq: 'asc' } }),
    closedLots: () =>
      prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: { not: null } }, orderBy: { seq: 'asc' } }),
    balance: (asset: string) => {
      const entry = sandbox.control.account(keys.apiKey).balances.find((b) => b.asset === asset);
      return new Decimal(entry?.free ?? 0).plus(entry?.locked ?? 0);
    },
    close: async () => {
      redis?.disconnect();
      await sandbox.close();
      await db.close();
    },
  };
};

/**
 * The platform's trading fee was charged exactly once per closed profitable lot, whatever crashed
 * or ran twice: one trade_fee transfer per such lot with the lot's fee, nothing for the others, the
 * fee balance down by their sum, the coin's total equal to it, and the books whole.
 */
export const expectTradeFeesOncePerLot = async (harness: Harness, funded = '100') => {
  const { prisma, bot } = harness;
  const closed = await prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: { not: null } } });
  const charges = await prisma.ledgerTransfer.findMany({
    where: { type: 'trade_fee', idempotencyKey: { in: closed.map((lot) => tradeFeeKey(lot.id)) } },
    include: { entries: true },
  });
  const expected = closed
    .map((lot) => ({ id: lot.id, fee: tradeFeeMicro(lot.pnl?.toString() ?? '0'), stored: lot.tradeFee }))
    .filter((lot) => lot.fee > 0n);
  expect(charges.map((c) => c.idempotencyKey).sort()).toEqual(
    expected.map((lot) => tradeFeeKey(lot.id)).sort(),
  );
  for (const lot of expected) expect(lot.stored).toBe(lot.fee);
  const total = expected.reduce((sum, lot) => sum + lot.fee, 0n);
  const all = await prisma.ledgerTransfer.count({ where: { type: 'trade_fee' } });
  expect(all).toBe(expected.length);
  expect(await balanceOf(prisma, userAccountCode(bot.userId, 'fee'))).toBe(toMicro(funded) - total);
  expect((await prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).tradeFees).toBe(total);
  expect((await checkInvariants(prisma)).ok).toBe(true);
  return { lots: expected.length, total };
};
