import type { User } from '@gridbot/db';
import type { ServiceContext } from '../context/service-context';
import { secretAad } from '../grid/exchange-clients';

/** The demo's coins: replayed real candles on the sandbox exchange (see apps/sandbox replayMarkets). */
export const DEMO_COINS = [
  { coin: 'ETH', orderSize: '50', stepPct: '0.5', stepIncreasePct: '0.05', maxTrades: 10 },
  { coin: 'XRP', orderSize: '25', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10 },
  { coin: 'ADA', orderSize: '20', stepPct: '0.8', stepIncreasePct: '0.1', maxTrades: 8 },
] as const;

export type DemoTradingInput = {
  user: User;
  apiKey: string;
  secret: string;
  /** Coins the sandbox lists; demo coins it lacks are skipped. */
  listedCoins: string[];
};

/**
 * Gives the demo user sandbox API keys and running coin bots. The sandbox exchange keeps its
 * accounts in memory, so each start begins a fresh trading history: the demo user's previous coin
 * bots (with their lots, orders and PnL rows) are replaced.
 */
export const seedDemoTrading = async (ctx: ServiceContext, input: DemoTradingInput) => {
  const { prisma } = ctx;
  const now = ctx.clock.now();
  const sealed = ctx.secrets.seal(input.secret, secretAad(input.user.id, 'binance'));
  const keys = {
    mode: 'sandbox',
    apiKey: input.apiKey,
    secretCipher: sealed.cipher,
    secretIv: sealed.iv,
    keyId: sealed.keyId,
    canTrade: true,
    canWithdraw: false,
    checkedAt: now,
  };
  await prisma.coinBot.deleteMany({ where: { userId: input.user.id } });
  const account = await prisma.exchangeAccount.upsert({
    where: { userId_exchange: { userId: input.user.id, exchange: 'binance' } },
    create: { userId: input.user.id, exchange: 'binance', ...keys },
    update: keys,
  });
  const coins = DEMO_COINS.filter((c) => input.listedCoins.includes(c.coin));
  const bots = [];
  for (const coin of coins) {
    bots.push(
      await prisma.coinBot.create({
        data: {
          userId: input.user.id,
          exchangeAccountId: account.id,
          symbol: `${coin.coin}/USDT`,
          running: true,
          startedAt: now,
          ...coin,
        },
      }),
    );
  }
  return { account, bots };
};
