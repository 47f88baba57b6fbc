import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { toMicro } from '@gridbot/ledger';
import { ENERGY_TRANSFER_TO_EMPTY, ENERGY_TRANSFER_TO_HOLDER } from '@gridbot/sandbox';
import {
  type ChainContext,
  createTronNodeClient,
  DEMO_MNEMONIC,
  type DepositKeys,
  demoDepositKey,
  demoXpub,
  loadDepositKeys,
  processSweeps,
  queueSweeps,
  scanDeposits,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

let h: ChainHarness;
let deposits: DepositKeys;
beforeAll(async () => {
  h = await createChainHarness({ hotUsdt: '100000', hotTrx: '10000' });
  h.tron.mine(30);
  await scanDeposits(h.ctx, h.node);
  deposits = loadDepositKeys(loadEnv({ NODE_ENV: 'test', DEMO: '1' }))!;
});
afterAll(async () => {
  await h.close();
});

/** Energy × 1.2 (the default margin), rounded up, × 210 sun: the fee limit and so the TRX the address needs. */
const feeLimitFor = (energy: number) => BigInt(Math.ceil((energy * 120) / 100) * 210);
const sweep = (ctx: ChainContext = h.ctx, options: Parameters<typeof processSweeps>[3] = {}) =>
  processSweeps(ctx, h.node, { hot: h.hot, deposits }, options);
const sweepRow = (id: number) => h.prisma.sweep.findUniqueOrThrow({ where: { id } });
const solidify = async () => {
  h.tron.mine(1);
  h.solidify();
};
/** A user whose deposit of `usdt` is credited (seen, then solidified and decided). */
const creditedUser = async (usdt: string) => {
  const user = await h.createUser();
  h.tron.send({ to: user.address, amount: usdt });
  await solidify();
  await scanDeposits(h.ctx, h.node);
  expect(await h.mainBalance(user.id)).toBe(toMicro(usdt));
  return user;
};
/** Runs the sweeper with blocks between passes until the sweep ends. */
const sweepToEnd = async (id: number, ctx: ChainContext = h.ctx) => {
  for (let pass = 0; pass < 6; pass += 1) {
    await sweep(ctx);
    const row = await sweepRow(id);
    if (row.openFor === null) return row;
    await solidify();
  }
  throw new Error(`sweep ${id} did not end`);
};
const ledgerBalances = async () =>
  Object.fromEntries(
    (await h.prisma.ledgerAccount.findMany({ select: { code: true, balance: true } })).map((a) => [
      a.code,
      a.balance,
    ]),
  );

describe('sweeps of deposit addresses', () => {
  it('moves credited USDT to the hot wallet with a TRX top-up, records what it cost, and books nothing', async () => {
    const user = await creditedUser('150');
    // A second deposit seen at the head but not solidified: not the user's yet, not swept.
    h.tron.send({ to: user.address, amount: '40' });
    h.tron.mine(1);
    await scanDeposits(h.ctx, h.node);
    const books = await ledgerBalances();
    const hotBefore = toMicro(h.tron.balances(h.hot.address).usdt);

    const [queued] = await queueSweeps(h.ctx, { requestedBy: 'operator:test' });
    expect(queued).toMatchObject({ address: user.address, amount: toMicro('150'), status: 'queued' });
    // Requested twice: still one open sweep of the address.
    expect(await queueSweeps(h.ctx, { requestedBy: 'auto' })).toEqual([]);

    expect(await sweep()).toMatchObject({ signed: 1, broadcast: 1 });
    const funding = await sweepRow(queued!.id);
    // The address holds no TRX: the hot wallet sends the transfer's fee limit (hot wallet holds
    // USDT, so the base energy).
    expect(funding).toMatchObject({
      status: 'topup_sent',
      destination: h.hot.address,
      destinationKind: 'hot',
      topupSun: feeLimitFor(ENERGY_TRANSFER_TO_HOLDER),
    });

    const done = await sweepToEnd(queued!.id);
    expect(done).toMatchObject({
      status: 'confirmed',
      amount: toMicro('150'),
      energyUsed: BigInt(ENERGY_TRANSFER_TO_HOLDER),
      // No staked energy on a deposit address: all of it burnt; its bandwidth came from the free allowance.
      trxBurnedSun: BigInt(ENERGY_TRANSFER_TO_HOLDER * 210),
      // Activating the address: 1 TRX + 0.1 TRX of bandwidth (the hot wallet has no staked bandwidth).
      topupFeeSun: 1_100_000n,
    });
    expect(done.transferTxid).toMatch(/^[0-9a-f]{64}$/);
    expect(toMicro(h.tron.balances(h.hot.address).usdt)).toBe(hotBefore + toMicro('150'));
    expect(h.tron.balances(user.address)).toMatchObject({
      usdt: '40',
      trx: String(
        Number(feeLimitFor(ENERGY_TRANSFER_TO_HOLDER) - BigInt(ENERGY_TRANSFER_TO_HOLDER * 210)) / 1e6,
      ),
    });
    // Ledger-neutral: the platform's USDT moved between its own addresses.
    expect(await ledgerBalances()).toEqual(books);
    await h.expectBooksBalanced();
    // The 40 now credited is under SWEEP_MIN_USDT: nothing to queue.
    await solidify();
    await scanDeposits(h.ctx, h.node);
    expect(await queueSweeps(h.ctx, { requestedBy: 'auto' })).toEqual([]);
  });

  it('sends above the ceiling to the cold address; a first transfer to it costs about twice the energy of the next', async () => {
    const cold = tronAddressOfPrivateKey('6'.repeat(64));
    // The hot wallet holds about 100,000 USDT, above this ceiling.
    const ctx = { ...h.ctx, env: { ...h.env, SWEEP_COLD_ADDRESS: cold, SWEEP_HOT_CEILING_USDT: '1000' } };
    const first = await creditedUser('300');
    const [one] = await queueSweeps(ctx, { requestedBy: 'auto', address: first.address });
    const a = await sweepToEnd(one!.id, ctx);
    const second = await creditedUser('200');
    const [two] = await queueSweeps(ctx, { requestedBy: 'auto', address: second.address });
    const b = await sweepToEnd(two!.id, ctx);

    expect(a).toMatchObject({ status: 'confirmed', destination: cold, destinationKind: 'cold' });
    expect(b).toMatchObject({ status: 'confirmed', destination: cold, destinationKind: 'cold' });
    expect(a.energyUsed).toBe(BigInt(ENERGY_TRANSFER_TO_EMPTY));
    expect(b.energyUsed).toBe(BigInt(ENERGY_TRANSFER_TO_HOLDER));
    expect(a.topupSun).toBe(feeLimitFor(ENERGY_TRANSFER_TO_EMPTY));
    expect(b.topupSun).toBe(feeLimitFor(ENERGY_TRANSFER_TO_HOLDER));
    expect(a.trxBurnedSun! - b.trxBurnedSun!).toBe(
      BigInt((ENERGY_TRANSFER_TO_EMPTY - ENERGY_TRANSFER_TO_HOLDER) * 210),
    );
    expect(h.tron.balances(cold).usdt).toBe('500');
  });

  it('sends each stored transaction exactly once when the sweeper dies between signing and broadcasting', async () => {
    const user = await creditedUser('120');
    const [queued] = await queueSweeps(h.ctx, { requestedBy: 'auto', address: user.address });
    const hotBefore = toMicro(h.tron.balances(h.hot.address).usdt);

    // The sweeper stores the top-up it signed and dies before sending it.
    expect(await sweep(h.ctx, { stopAfterSigning: true })).toMatchObject({ signed: 1, broadcast: 0 });
    const topup = await sweepRow(queued!.id);
    expect(topup.status).toBe('topup_signed');
    expect(h.tron.chain.pendingCount).toBe(0);

    // Two restarted sweepers at once send the stored bytes: one transaction reaches the chain.
    const restarted = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    const resume = (options = {}) => processSweeps(h.ctx, restarted, { hot: h.hot, deposits }, options);
    const both = await Promise.all([resume({ stopAfterSigning: true }), resume({ stopAfterSigning: true })]);
    expect(both.reduce((n, r) => n + r.signed, 0)).toBe(0);
    expect(h.tron.chain.pendingCount).toBe(1);
    expect((await sweepRow(queued!.id)).topupTxid).toBe(topup.topupTxid);
    await solidify();
    // Funded: the transfer is signed and stored, then the sweeper dies again.
    expect(await resume({ stopAfterSigning: true })).toMatchObject({ signed: 1, broadcast: 0 });
    const stored = await sweepRow(queued!.id);
    expect(stored.status).toBe('transfer_signed');
    expect(await h.node.transactionInfo(stored.transferTxid!, false)).toBeUndefined();
    expect(await resume()).toMatchObject({ signed: 0, broadcast: 1 });
    await solidify();
    await resume();
    await resume();
    const done = await sweepRow(queued!.id);
    expect(done).toMatchObject({ status: 'confirmed', transferTxid: stored.transferTxid });
    expect(toMicro(h.tron.balances(h.hot.address).usdt)).toBe(hotBefore + toMicro('120'));
    expect(h.tron.balances(user.address).usdt).toBe('0');
  });

  it('waits, sending nothing, while the hot wallet cannot pay the top-up', async () => {
    const user = await creditedUser('110');
    const trx = h.tron.balances(h.hot.address).trx;
    h.tron.adjust({ address: h.hot.address, trx: '1' });
    try {
      const [queued] = await queueSweeps(h.ctx, { requestedBy: 'auto', address: user.address });
      expect(await sweep()).toMatchObject({ signed: 0, broadcast: 0 });
      expect(await sweepRow(queued!.id)).toMatchObject({
        status: 'queued',
        reason: 'the hot wallet holds too little TRX for the top-up',
      });
      expect(h.tron.chain.pendingCount).toBe(0);
      h.tron.adjust({ address: h.hot.address, trx });
      // Two sweepers at once: one top-up is signed and sent; the other's signature is dropped unsent.
      const both = await Promise.all([sweep(), sweep()]);
      expect(both.reduce((n, r) => n + r.signed, 0)).toBe(1);
      expect(h.tron.chain.pendingCount).toBe(1);
      expect(await sweepToEnd(queued!.id)).toMatchObject({ status: 'confirmed', reason: null });
    } finally {
      h.tron.adjust({ address: h.hot.address, trx });
    }
  });
});

describe('the deposit keys', () => {
  it('come from the seed file in the sweeper only, must match WALLET_XPUB, and sign only their own address', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-seed-'));
    try {
      const file = (name: string, text: string) => {
        const path = join(dir, name);
        writeFileSync(path, `${text}\n`);
        return path;
      };
      const env = (seedFile?: string) =>
        loadEnv({
          NODE_ENV: 'test',
          WALLET_XPUB: demoXpub(),
          ...(seedFile ? { SWEEP_SEED_FILE: seedFile } : {}),
        });
      // Outside demo mode without a file: no sweeper at all.
      expect(loadDepositKeys(env())).toBeUndefined();
      const fromPhrase = loadDepositKeys(env(file('phrase', DEMO_MNEMONIC)))!;
      const address = tronAddressOfPrivateKey(demoDepositKey(7));
      expect(fromPhrase.keyFor(7, address)).toBe(demoDepositKey(7));
      expect(() => fromPhrase.keyFor(8, address)).toThrow(/not the wallet's address/);
      const xprv = utils.ethersUtils.ethersHDNodeWallet.fromPhrase(
        DEMO_MNEMONIC,
        undefined,
        "m/44'/195'/0'",
      ).extendedKey;
      expect(loadDepositKeys(env(file('xprv', xprv)))!.keyFor(7, address)).toBe(demoDepositKey(7));
      const other = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
      expect(() => loadDepositKeys(env(file('other', other)))).toThrow(ConfigError);
      expect(() => loadDepositKeys(env(file('other2', other)))).toThrow(/not those of WALLET_XPUB/);
      expect(() => loadDepositKeys(env(file('junk', 'not a seed')))).toThrow(/neither a mnemonic/);
      expect(() => loadDepositKeys(env(join(dir, 'missing')))).toThrow(/cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
