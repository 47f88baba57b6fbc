import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { type SandboxTronHandle, startSandboxTron } from '@gridbot/sandbox';
import {
  createTronNodeClient,
  demoHotWalletKey,
  readHotWallet,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCli } from '../src/cli/ops-commands';
import { runWalletCli } from '../src/cli/wallet-commands';
import { createTestApp, type TestApp } from './support/test-app';
import { walletEnv } from './support/wallet-fixtures';

const HOT = tronAddressOfPrivateKey(demoHotWalletKey());

let t: TestApp;
let tron: SandboxTronHandle;
let dir: string;
let seedFile: string;
beforeAll(async () => {
  tron = await startSandboxTron({
    blockIntervalMs: 0,
    genesis: [{ address: HOT, usdt: '5000', trx: '1000' }],
  });
  tron.tron.mine(5);
  dir = mkdtempSync(join(tmpdir(), 'sweep-seed-'));
  // A named pipe as the seed file: whoever opens it for reading would wait for a writer forever,
  // and while someone has it open, a non-blocking writer can open it. So it shows any reader.
  seedFile = join(dir, 'seed.fifo');
  execFileSync('mkfifo', [seedFile]);
  t = await createTestApp({ ...walletEnv(), SWEEP_SEED_FILE: seedFile, TRON_NODE_URL: tron.url });
});
afterAll(async () => {
  await t.close();
  await tron.close();
  rmSync(dir, { recursive: true, force: true });
});

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};
const cli = async (...argv: string[]) => {
  const run = io();
  const code = await runWalletCli(t.ctx, argv, run.io, 'ops');
  return { code, out: run.out.join('\n'), err: run.err.join('\n') };
};

/** A user with a deposit address (through the API) holding `usdt` on chain, credited as the watcher does. */
const userWithDeposit = async (username: string, usdt: string) => {
  const user = await t.createUser({ username });
  const made = await t.app.inject({
    method: 'POST',
    url: '/wallet/create_wallet',
    headers: await t.authHeader(user),
  });
  const address = made.json().depositAddress as string;
  const { txid } = tron.tron.send({ to: address, amount: usdt });
  tron.tron.mine(1);
  await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(t.prisma, user.id);
  const booked = await transfer(t.prisma, {
    idempotencyKey: `deposit:${txid}:0`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(usdt) },
      { account: userAccountCode(user.id, 'main'), amount: toMicro(usdt) },
    ],
  });
  await t.prisma.chainDeposit.create({
    data: {
      txid,
      logIndex: 0,
      userId: user.id,
      toAddress: address,
      fromAddress: tron.tron.status().faucet,
      amount: toMicro(usdt),
      blockNumber: BigInt(tron.tron.chain.head.number),
      blockTime: new Date(),
      status: 'credited',
      ledgerTransferId: booked.id,
    },
  });
  return { user, address };
};

describe('npm run wallet -- sweeps', () => {
  it('lists the addresses to sweep, costs them from the node, and queues them for the sweeper', async () => {
    const big = await userWithDeposit('sweep_big', '250');
    const small = await userWithDeposit('sweep_small', '30');
    // The watcher has read the hot wallet (it records its address for the CLI).
    await readHotWallet(
      t.ctx,
      createTronNodeClient({ url: tron.url, usdtContract: t.ctx.env.USDT_CONTRACT }),
      HOT,
    );

    const listed = await cli('sweeps', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`${big.address}  user ${big.user.id}  250 USDT`);
    expect(listed.out).not.toContain(small.address);

    const cost = await cli('sweeps', 'cost');
    expect(cost.code).toBe(0);
    // The hot wallet holds USDT: the base energy; the address holds no TRX: the fee limit as top-up,
    // and activating it costs the hot wallet 1.1 TRX.
    expect(cost.out).toContain(`${big.address}  250 USDT → hot ${HOT}  energy 64285`);
    expect(cost.out).toContain('top-up 16.19982 TRX (its fee 1.1)');
    expect(cost.out).toContain('transfer burns 13.49985 TRX  cost 14.59985 TRX');
    expect(tron.tron.chain.pendingCount).toBe(0);

    const run = await cli('sweeps', 'run', '--address', big.address, '--operator', 'ann');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/#\d+ queued: .* 250 USDT/);
    expect(await t.prisma.sweep.findMany()).toMatchObject([
      { address: big.address, status: 'queued', requestedBy: 'operator:ann', amount: toMicro('250') },
    ]);
    expect((await cli('sweeps', 'run')).out).toBe('nothing to sweep');
    expect((await cli('sweeps', 'list')).out).toContain('open sweeps: 1');
    expect(await cli('sweeps', 'run', '--address', 'Tnope')).toMatchObject({ code: 2 });
    expect(await cli('sweeps', 'sweep')).toMatchObject({ code: 2 });

    // The operator's summary shows the hot wallet as read and the open sweep.
    const summary = io();
    expect(await runOpsCli(t.ctx, ['summary'], summary.io)).toBe(0);
    const printed = summary.out.join('\n');
    expect(printed).toContain(`hot wallet    ${HOT}: 5000 USDT, 1000 TRX, energy 0 of 0, bandwidth 600`);
    expect(printed).toContain('energy price 210 sun, read ');
    expect(printed).toContain('sweeps        1 open (250 USDT), 0 done (0 USDT), cost 0 TRX');
    const json = io();
    await runOpsCli(t.ctx, ['summary', '--json'], json.io);
    expect(JSON.parse(json.out.join(''))).toMatchObject({
      hotWallet: { address: HOT, usdt: '5000', trx: '1000', energyPriceSun: '210', lowUsdtSince: null },
      sweeps: { open: { count: 1, amount: '250' } },
    });
  });

  it("never opens the sweeper's seed file: not the API's configuration, requests or CLI", async () => {
    expect(t.ctx.env.SWEEP_SEED_FILE).toBe(seedFile);
    const user = await t.createUser({ username: 'seed_watch' });
    const headers = await t.authHeader(user);
    for (const url of ['/wallet/create_wallet', '/wallet/get_address', '/wallet']) {
      expect((await t.app.inject({ method: 'POST', url, headers })).statusCode).toBe(200);
    }
    await cli('sweeps', 'list');
    // ENXIO: no process holds the pipe open for reading.
    expect(() => openSync(seedFile, constants.O_WRONLY | constants.O_NONBLOCK)).toThrow(
      expect.objectContaining({ code: 'ENXIO' }),
    );
  });
});
