import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkInvariants, userAccountCode } from '@gridbot/ledger';
import { DEMO_ACCOUNTS, demoXpub, deriveDepositAddress, queueSweeps } from '@gridbot/services';
import { afterAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/start-standalone';

const dir = mkdtempSync(join(tmpdir(), 'standalone-chain-'));
const env = {
  PGLITE_DIR: join(dir, 'pglite'),
  PORT: '0',
  SANDBOX_PORT: '0',
  LOG_LEVEL: 'warn',
  DEMO: '1',
  WATCHER_INTERVAL_MS: '200',
  BOT_NOTIFY_INTERVAL_MS: '200',
  SWEEP_MIN_USDT: '30',
};
let running: Standalone | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run demo:send -- <address> <amount>` as a user runs it, against this test's data folder. */
const demoSend = (address: string, amount: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const { SANDBOX_TRON_URL: _named, ...inherited } = process.env;
    execFile(
      process.execPath,
      [fileURLToPath(new URL('../../sandbox/bin/demo-send.mjs', import.meta.url)), address, amount],
      { env: { ...inherited, PGLITE_DIR: env.PGLITE_DIR } },
      (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });

const mainOf = async (s: Standalone, userId: number) =>
  (await s.ctx.prisma.ledgerAccount.findUniqueOrThrow({ where: { code: userAccountCode(userId, 'main') } }))
    .balance;

describe('npm start: the sandbox TRON node and the watcher', () => {
  it('credits a USDT deposit to the demo user, and keeps the chain and the cursor across a restart', async () => {
    running = await startStandalone(env, { sandboxTickMs: 0, tronBlockMs: 20, banner: false });
    const first = running;
    const { prisma } = first.ctx;
    const user = await prisma.user.findUniqueOrThrow({
      where: { telegramId: DEMO_ACCOUNTS.user.telegramId },
    });
    // The demo seed made the demo user's wallet (with a withdrawal address already usable).
    const { depositAddress: address } = await prisma.wallet.findUniqueOrThrow({ where: { userId: user.id } });
    expect(address).toBe(deriveDepositAddress(demoXpub(), user.id));
    const before = await mainOf(first, user.id);
    // The demo's hot wallet was funded in the genesis block.
    expect(first.tron.tron.balances(first.tron.tron.status().faucet).usdt).not.toBe('0');

    // `npm run demo:send` finds this demo's node by itself (its run file), whatever port it took.
    const sent = await demoSend(address, '25');
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stdout).toContain(`to ${address} on ${first.tron.url}`);
    await expect
      .poll(() => mainOf(first, user.id), { timeout: 30_000, interval: 200 })
      .toBe(before + 25_000_000n);
    // The bot tells the demo user through the Bot API stand-in (and the demo logs it).
    // (The demo team's licence purchases also tell the demo user of their referral bonuses.)
    const chat = Number(user.telegramId);
    const deposited = () =>
      first.telegram!.telegram.messagesTo(chat).find((m) => m.text?.includes('25 USDT'));
    await expect.poll(deposited, { timeout: 30_000, interval: 200 }).toBeDefined();
    const message = deposited();
    expect(message?.reply_markup).toMatchObject({
      inline_keyboard: [[{ web_app: { url: first.url.replace('127.0.0.1', 'localhost') } }]],
    });
    const head = first.tron.tron.chain.head;
    await first.stop();
    running = undefined;
    // No demo runs from this folder now: it says so and sends nothing, wherever.
    const refused = await demoSend(address, '5');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`no demo is running from ${dir}`);

    running = await startStandalone(env, { sandboxTickMs: 0, tronBlockMs: 20, banner: false });
    const second = running;
    // The same chain: the block produced before the stop is still there, with the same id.
    expect(second.tron.tron.chain.block(head.number)?.blockID).toBe(head.blockID);
    expect(second.tron.tron.balances(address).usdt).toBe('25');
    second.tron.tron.send({ to: address, amount: '11' });
    await expect
      .poll(() => mainOf(second, user.id), { timeout: 30_000, interval: 200 })
      .toBe(before + 36_000_000n);
    const credited = await second.ctx.prisma.chainDeposit.findMany({ where: { userId: user.id } });
    expect(credited.map((d) => d.status)).toEqual(['credited', 'credited']);
    expect((await checkInvariants(second.ctx.prisma)).ok).toBe(true);
  }, 180_000);

  it("sweeps the demo user's credited USDT to the hot wallet and shows the hot wallet in /readyz", async () => {
    const s = running!;
    const demo = await s.ctx.prisma.user.findUniqueOrThrow({
      where: { telegramId: DEMO_ACCOUNTS.user.telegramId },
    });
    const address = deriveDepositAddress(demoXpub(), demo.id);
    const hot = (await s.ctx.prisma.hotWalletStatus.findFirstOrThrow()).address;
    const hotBefore = Number(s.tron.tron.balances(hot).usdt);
    const [queued] = await queueSweeps(s.ctx, { requestedBy: 'operator:test' });
    expect(queued).toMatchObject({ address, amount: 36_000_000n });
    await expect
      .poll(async () => (await s.ctx.prisma.sweep.findUniqueOrThrow({ where: { id: queued!.id } })).status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('confirmed');
    expect(s.tron.tron.balances(address).usdt).toBe('0');
    expect(Number(s.tron.tron.balances(hot).usdt)).toBe(hotBefore + 36);
    const ready = await (await fetch(`${s.url}/readyz`)).json();
    expect(ready).toMatchObject({
      status: 'ready',
      detail: { hotWallet: { address: hot, energyPriceSun: 210 } },
    });
    expect((await checkInvariants(s.ctx.prisma)).ok).toBe(true);
  }, 60_000);
});
