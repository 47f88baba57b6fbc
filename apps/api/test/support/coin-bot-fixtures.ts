import type { User } from '@gridbot/db';
import type { TestApp } from './test-app';

/**
 * A coin bot of `user` on a sandbox Binance account with sealed keys, as saving keys and adding a
 * coin leave it (XRP, 10 USDT orders, 1 % step): for tests that need its rows, not its trading.
 */
export const createCoinBot = async (t: TestApp, user: User, fields: { running?: boolean } = {}) => {
  const sealed = t.ctx.secrets.seal('secret', `${user.id}:binance`);
  const account = await t.prisma.exchangeAccount.create({
    data: {
      userId: user.id,
      exchange: 'binance',
      mode: 'sandbox',
      apiKey: `key-${user.id}`,
      secretCipher: sealed.cipher,
      secretIv: sealed.iv,
      keyId: sealed.keyId,
    },
  });
  return t.prisma.coinBot.create({
    data: {
      userId: user.id,
      exchangeAccountId: account.id,
      coin: 'XRP',
      symbol: 'XRP/USDT',
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0',
      maxTrades: 3,
      running: fields.running ?? false,
    },
  });
};
