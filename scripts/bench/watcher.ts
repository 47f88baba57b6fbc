// Watcher benchmark (docs/performance.md#watcher): USDT deposits credited per second by the watcher
// (scanDeposits against the sandbox TRON node over HTTP), 2,000 deposits to 200 deposit addresses,
// first seen at the head (pending), then decided once solidified (credited, one keyed ledger transfer,
// status and notification each). Next to two floors measured in the same run: the bare ledger
// transfers the deposits come down to (one transfer() per deposit, sequential like the watcher),
// and the bare block reads (gettransactioninfobyblocknum for the same blocks, no database). Beside
// them, the node requests per block (the sandbox node counts them): over the burst, and at steady
// state — the watcher loop, one pass per new block for 30 blocks — against TronGrid's budget of
// 100,000 requests a day per key, 3.47 per block (docs/wallet.md#within-trongrids-budget).
// Uses DATABASE_URL or the local PostgreSQL default.
import { loadEnv } from '@gridbot/config';
import { createTestDb } from '@gridbot/db/testing';
import {
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { startSandboxTron } from '@gridbot/sandbox';
import {
  type ChainContext,
  createTronNodeClient,
  demoHotWalletKey,
  demoXpub,
  deriveDepositAddress,
  scanDeposits,
  systemClock,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { silentLogger } from '@gridbot/services/testing';
import { startWatcher } from '@gridbot/watcher';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const ADDRESSES = 200;
const DEPOSITS = 2_000;
const PER_BLOCK = 100;
const TARGET_PER_SECOND = 100;
const TARGET_RATIO = 0.25;
const STEADY_BLOCKS = 30;
/** TronGrid's 100,000 requests a day per key over the chain's 28,800 blocks a day. */
const BUDGET_PER_BLOCK = 100_000 / 28_800;
const TARGET_REQUESTS_PER_BLOCK = 3;

const testDb = await createTestDb();
const { prisma } = testDb;
const node = await startSandboxTron({ blockIntervalMs: 0 });
let failed = false;
try {
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const ctx: ChainContext = { prisma, env, log: silentLogger, clock: systemClock };
  const client = createTronNodeClient({ url: node.url, usdtContract: env.USDT_CONTRACT });
  const { tron } = node;
  tron.mine(30);
  await scanDeposits(ctx, client); // the cursor starts at the solidified block
  const caughtUpAt = tron.chain.head.number;

  await prisma.$executeRawUnsafe(`
    INSERT INTO users (telegram_id, username, username_key, first_name, referral_code, updated_at)
    SELECT g, 'u' || g, 'u' || g, 'U', 'r' || g, now() FROM generate_series(1, ${ADDRESSES}) g`);
  const users = await prisma.user.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  const wallets = users.map((u, i) => ({
    userId: u.id,
    derivationIndex: i,
    depositAddress: deriveDepositAddress(demoXpub(), i),
  }));
  await prisma.wallet.createMany({ data: wallets });
  for (const u of users) await ensureUserAccounts(prisma, u.id);
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);

  const blocks: number[] = [];
  for (let i = 0; i < DEPOSITS; i += 1) {
    tron.send({ to: wallets[i % ADDRESSES]!.depositAddress, amount: `${11 + (i % 50)}.5` });
    if ((i + 1) % PER_BLOCK === 0) blocks.push(tron.mine(1)[0]!.number);
  }
  console.log(`${DEPOSITS} deposits to ${ADDRESSES} addresses in ${blocks.length} blocks of ${PER_BLOCK}`);

  // The watcher: seen at the head (pending), then decided after solidification (credited).
  tron.traffic.reset();
  const t0 = performance.now();
  // (the oldest deposit block is already solidified: this pass credits it too)
  await scanDeposits(ctx, client);
  const seenSeconds = (performance.now() - t0) / 1000;
  tron.mine(tron.chain.solidityLag + 1);
  const t1 = performance.now();
  for (let last = await scanDeposits(ctx, client); last.decidedUpTo < last.solid; ) {
    last = await scanDeposits(ctx, client);
  }
  const decideSeconds = (performance.now() - t1) / 1000;
  const credited = await prisma.chainDeposit.count({ where: { status: 'credited' } });
  const watcherPerSecond = credited / (seenSeconds + decideSeconds);
  const burstRequests = tron.traffic.report().total;
  const burstBlocks = tron.chain.head.number - caughtUpAt;

  // Steady state: the watcher loop (heights, deposits, withdrawals), one pass per new block, a
  // few deposits in every block.
  const hot = { privateKey: demoHotWalletKey(), address: tronAddressOfPrivateKey(demoHotWalletKey()) };
  const watcher = startWatcher({ ctx, nodeUrl: node.url, hot, intervalMs: 600_000 });
  await watcher.runOnce();
  tron.traffic.reset();
  for (let b = 0; b < STEADY_BLOCKS; b += 1) {
    for (let i = 0; i < 5; i += 1)
      tron.send({ to: wallets[(b * 5 + i) % ADDRESSES]!.depositAddress, amount: '12' });
    tron.mine(1);
    await watcher.runOnce();
  }
  await watcher.stop();
  const steady = tron.traffic.report();
  const steadyPerBlock = steady.total / STEADY_BLOCKS;

  // Floor 1: the ledger transfers alone, one per deposit, sequential.
  const t2 = performance.now();
  for (let i = 0; i < DEPOSITS; i += 1) {
    await transfer(prisma, {
      idempotencyKey: `floor:${i}`,
      type: 'deposit',
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -1_000_000n },
        { account: userAccountCode(users[i % ADDRESSES]!.id, 'main'), amount: 1_000_000n },
      ],
    });
  }
  const ledgerPerSecond = DEPOSITS / ((performance.now() - t2) / 1000);

  // Floor 2: reading the deposits' blocks from the node, nothing else.
  const t3 = performance.now();
  for (const n of blocks) await client.blockTransactionInfos(n, true);
  const readSeconds = (performance.now() - t3) / 1000;

  const report = await checkInvariants(prisma);
  const ratio = watcherPerSecond / ledgerPerSecond;
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  console.log(`database: ${testDb.url ? 'PostgreSQL' : 'PGlite'}`);
  console.log(
    `watcher:                 ${fmt(watcherPerSecond)} deposits/s (${credited} credited; ` +
      `seen ${seenSeconds.toFixed(2)} s, decided ${decideSeconds.toFixed(2)} s), ` +
      `${(burstRequests / burstBlocks).toFixed(2)} node requests per block (${burstRequests} for ${burstBlocks} blocks)`,
  );
  console.log(
    `node requests per block: ${steadyPerBlock.toFixed(2)} at steady state (${STEADY_BLOCKS} blocks, one pass each: ` +
      `${Object.entries(steady.byPath)
        .map(([path, n]) => `${path} ${n}`)
        .join(', ')}); TronGrid's budget ${BUDGET_PER_BLOCK.toFixed(2)}`,
  );
  console.log(`floor, ledger transfers: ${fmt(ledgerPerSecond)} transfers/s (sequential transfer())`);
  console.log(
    `floor, block reads:      ${fmt(DEPOSITS / readSeconds)} deposits/s (${blocks.length} blocks in ${readSeconds.toFixed(2)} s, no database)`,
  );
  console.log(`ratio watcher / ledger floor: ${(ratio * 100).toFixed(0)} %`);
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const withinBudget = steadyPerBlock <= TARGET_REQUESTS_PER_BLOCK;
  console.log(
    `targets: ≥ ${TARGET_PER_SECOND}/s ${verdict(watcherPerSecond >= TARGET_PER_SECOND)}, ` +
      `≥ ${TARGET_RATIO * 100} % of the ledger floor ${verdict(ratio >= TARGET_RATIO)}, ` +
      `≤ ${TARGET_REQUESTS_PER_BLOCK} node requests per block ${verdict(withinBudget)}`,
  );
  console.log(`invariants: ${report.ok ? 'ok' : 'VIOLATED'}`);
  failed =
    !report.ok ||
    credited !== DEPOSITS ||
    watcherPerSecond < TARGET_PER_SECOND ||
    ratio < TARGET_RATIO ||
    !withinBudget;
} finally {
  await node.close();
  await testDb.close();
}
process.exitCode = failed ? 1 : 0;
