import { createTestDb } from '@gridbot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context/service-context';
import { seedDemo } from '../src/demo/seed-demo';
import { type DemoSandbox, seedDemoTrading } from '../src/demo/seed-demo-trading';
import { createTestContext } from '../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;

/** The sandbox as the seed sees it: the keys it knows, and new accounts with numbered keys. */
const sandboxKnowing = (keys: Set<string>): DemoSandbox => ({
  hasApiKey: (apiKey) => keys.has(apiKey),
  createAccount: () => {
    const apiKey = `key-${keys.size + 1}`;
    keys.add(apiKey);
    return { apiKey, secret: `secret-${apiKey}` };
  },
});

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma });
});
afterAll(async () => db.close());

describe('seedDemoTrading across restarts', () => {
  it('resumes with the stored keys and coin bots while the sandbox has the account, starts over when it does not', async () => {
    const { user } = await seedDemo(ctx);
    const keys = new Set<string>();
    const listedCoins = ['ETH', 'XRP', 'ADA', 'LTC'];

    const first = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(keys) });
    expect(first.start).toBe('fresh');
    expect(first.bots.map((b) => b.coin)).toEqual(['ETH', 'XRP', 'ADA']);
    const eth = first.bots[0]!;
    await ctx.prisma.lot.create({
      data: { coinBotId: eth.id, seq: 1, buyPrice: '3000', qty: '0.01', cost: '30', openedAt: new Date() },
    });

    const again = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(keys) });
    expect(again.start).toBe('resumed');
    expect(again.account.apiKey).toBe(first.account.apiKey);
    expect(again.bots.map((b) => b.id)).toEqual(first.bots.map((b) => b.id));
    expect(await ctx.prisma.lot.count({ where: { coinBotId: eth.id } })).toBe(1);
    // The secret stays the one the sandbox issued (not sealed again with another value).
    expect(
      ctx.secrets.open(
        { cipher: again.account.secretCipher, iv: again.account.secretIv, keyId: again.account.keyId },
        `${user.id}:binance`,
      ),
    ).toBe(`secret-${first.account.apiKey}`);

    // The sandbox's state file was deleted: its new process knows no key.
    const forgotten = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(new Set()) });
    expect(forgotten.start).toBe('fresh');
    expect(forgotten.account.id).toBe(first.account.id);
    expect(forgotten.bots.map((b) => b.coin)).toEqual(['ETH', 'XRP', 'ADA']);
    expect(forgotten.bots.some((b) => first.bots.some((old) => old.id === b.id))).toBe(false);
    expect(await ctx.prisma.lot.count({ where: { coinBotId: eth.id } })).toBe(0);
  });
});
