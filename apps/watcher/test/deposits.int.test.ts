import { toMicro } from '@gridbot/ledger';
import { createTronNodeClient, DEPOSIT_CURSOR, scanDeposits } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

// One database and chain for the file (each test has its own users); the books are checked after each.
let h: ChainHarness;
beforeAll(async () => {
  h = await createChainHarness();
  // The watcher's first pass starts at the solidified block of a chain already running.
  h.tron.mine(30);
  await scanDeposits(h.ctx, h.node);
});
afterAll(async () => {
  await h.close();
});

const scan = () => scanDeposits(h.ctx, h.node);

describe('deposits through the sandbox TRON node', () => {
  it('shows a deposit as pending when seen, credits it once its block is solidified', async () => {
    const alice = await h.createUser();
    const { txid } = h.tron.send({ to: alice.address, amount: '25.5' });
    const [block] = h.tron.mine(1);
    await scan();
    const [pending] = await h.deposits(alice.id);
    expect(pending).toMatchObject({
      txid,
      logIndex: 0,
      userId: alice.id,
      status: 'pending',
      amount: 25_500_000n,
    });
    expect(await h.mainBalance(alice.id)).toBe(0n);

    h.tron.mine(18); // one block short of solidified
    await scan();
    expect((await h.deposits(alice.id))[0]!.status).toBe('pending');

    h.tron.mine(1);
    const result = await scan();
    expect(result.credited).toBe(1);
    const [credited] = await h.deposits(alice.id);
    expect(credited).toMatchObject({ status: 'credited', blockNumber: BigInt(block!.number) });
    expect(await h.mainBalance(alice.id)).toBe(25_500_000n);
    const booked = await h.prisma.ledgerTransfer.findUniqueOrThrow({
      where: { id: credited!.ledgerTransferId! },
    });
    expect(booked).toMatchObject({ type: 'deposit', idempotencyKey: `deposit:${txid}:0` });
    const notes = await h.prisma.notification.findMany({ where: { userId: alice.id } });
    expect(notes).toMatchObject([{ userId: alice.id, kind: 'deposit_credited' }]);
    await h.expectBooksBalanced();
  });

  it('credits a deposit seen again (rescans, a rewound cursor, a restarted watcher) exactly once', async () => {
    const alice = await h.createUser();
    const bob = await h.createUser();
    h.tron.send({ to: alice.address, amount: '40' });
    h.tron.send({ to: bob.address, amount: '12' });
    const [block] = h.tron.mine(1);
    await scan();
    await scan();
    h.solidify();
    await scan();
    // A crash that lost the cursor would rescan: put it back before the deposits' block.
    await h.prisma.chainCursor.update({
      where: { name: DEPOSIT_CURSOR },
      data: { blockNumber: BigInt(block!.number - 5) },
    });
    // A restarted watcher: a new client, the same database.
    const restarted = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    await scanDeposits(h.ctx, restarted);
    await scanDeposits(h.ctx, restarted);
    expect([...(await h.deposits(alice.id)), ...(await h.deposits(bob.id))].map((d) => d.status)).toEqual([
      'credited',
      'credited',
    ]);
    expect(await h.mainBalance(alice.id)).toBe(40_000_000n);
    expect(await h.mainBalance(bob.id)).toBe(12_000_000n);
    const users = { userId: { in: [alice.id, bob.id] } };
    expect(await h.prisma.ledgerEntry.count({ where: { account: { is: users } } })).toBe(2);
    expect(await h.prisma.notification.count({ where: users })).toBe(2);
    await h.expectBooksBalanced();
  });

  it('ignores a failed transaction, the look-alike token, transfers to other addresses', async () => {
    const alice = await h.createUser();
    h.tron.send({ to: alice.address, amount: '50', fail: true });
    h.tron.send({ to: alice.address, amount: '60', token: 'fake' });
    h.tron.send({ to: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', amount: '70' });
    h.tron.mine(1);
    await scan();
    h.solidify();
    await scan();
    expect(await h.deposits(alice.id)).toEqual([]);
    expect(await h.mainBalance(alice.id)).toBe(0n);
    expect(h.tron.balances(alice.address)).toMatchObject({ usdt: '0', fakeUsdt: '60' });
    await h.expectBooksBalanced();
  });

  it('records 10.99 USDT as not credited and credits exactly 11', async () => {
    const alice = await h.createUser();
    const small = h.tron.send({ to: alice.address, amount: '10.99' });
    const exact = h.tron.send({ to: alice.address, amount: '11' });
    h.tron.mine(1);
    await scan();
    h.solidify();
    await scan();
    const rows = await h.deposits(alice.id);
    expect(rows.find((d) => d.txid === small.txid)).toMatchObject({
      status: 'not_credited',
      amount: 10_990_000n,
    });
    expect(rows.find((d) => d.txid === exact.txid)).toMatchObject({
      status: 'credited',
      amount: toMicro('11'),
    });
    expect(await h.mainBalance(alice.id)).toBe(toMicro('11'));
    await h.expectBooksBalanced();
  });

  it('credits deposits under the minimum together once they reach it, once (two watchers, a rescan)', async () => {
    const alice = await h.createUser();
    h.tron.send({ to: alice.address, amount: '5' });
    h.tron.mine(1);
    h.tron.send({ to: alice.address, amount: '4' });
    h.tron.mine(1);
    await scan();
    h.solidify();
    await scan();
    expect((await h.deposits(alice.id)).map((d) => [d.status, d.ledgerTransferId])).toEqual([
      ['not_credited', null],
      ['not_credited', null],
    ]);
    expect(await h.mainBalance(alice.id)).toBe(0n);
    expect(await h.prisma.notification.count({ where: { userId: alice.id } })).toBe(0);

    // 5 + 4 + 3 = 12 ≥ 11: the block that solidifies the third credits all three, in one transfer.
    const third = h.tron.send({ to: alice.address, amount: '3' });
    const [block] = h.tron.mine(1);
    await scan();
    expect((await h.deposits(alice.id)).map((d) => d.status)).toEqual([
      'not_credited',
      'not_credited',
      'pending',
    ]);
    h.solidify();
    const other = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    await Promise.all([scan(), scanDeposits(h.ctx, other), scan()]);
    // Scanned again from before its block: nothing more.
    await h.prisma.chainCursor.update({
      where: { name: DEPOSIT_CURSOR },
      data: { blockNumber: BigInt(block!.number - 1) },
    });
    await scan();

    const rows = await h.deposits(alice.id);
    expect(rows.map((d) => d.status)).toEqual(['credited', 'credited', 'credited']);
    const transferIds = new Set(rows.map((d) => d.ledgerTransferId));
    expect(transferIds.size).toBe(1);
    const booked = await h.prisma.ledgerTransfer.findUniqueOrThrow({
      where: { id: rows[0]!.ledgerTransferId! },
    });
    expect(booked).toMatchObject({ type: 'deposit', idempotencyKey: `deposit:below_minimum:${rows[2]!.id}` });
    expect(await h.mainBalance(alice.id)).toBe(toMicro('12'));
    expect(await h.prisma.ledgerEntry.count({ where: { account: { is: { userId: alice.id } } } })).toBe(1);
    const notes = await h.prisma.notification.findMany({ where: { userId: alice.id } });
    expect(notes).toMatchObject([
      { kind: 'deposit_credited', data: { amount: '12000000', txid: third.txid, deposits: 3 } },
    ]);
    await h.expectBooksBalanced();
  });

  it('drops a pending deposit whose block a fork took away before solidification, never credits it', async () => {
    const alice = await h.createUser();
    const { txid } = h.tron.send({ to: alice.address, amount: '30' });
    h.tron.mine(2);
    await scan();
    expect((await h.deposits(alice.id))[0]).toMatchObject({ txid, status: 'pending' });
    h.tron.chain.fork(3);
    h.solidify();
    await scan();
    expect((await h.deposits(alice.id))[0]).toMatchObject({
      txid,
      status: 'dropped',
      ledgerTransferId: null,
    });
    expect(await h.mainBalance(alice.id)).toBe(0n);
    expect(await h.prisma.notification.count({ where: { userId: alice.id } })).toBe(0);
    await h.expectBooksBalanced();
  });

  it('follows a forked deposit to the block that packs it again, and credits it once', async () => {
    const alice = await h.createUser();
    const { txid } = h.tron.send({ to: alice.address, amount: '30' });
    h.tron.mine(1);
    await scan();
    const seenAt = Number((await h.deposits(alice.id))[0]!.blockNumber);
    h.tron.chain.fork(1, true); // blocks seenAt and seenAt + 1 of the other branch, without it
    h.tron.mine(1); // packed again at seenAt + 2
    // Solidify up to seenAt only: the deposit is not there any more, but still in the chain.
    h.tron.mine(seenAt + h.tron.chain.solidityLag - h.tron.chain.head.number);
    expect(h.tron.chain.solidNumber).toBe(seenAt);
    await scan();
    expect((await h.deposits(alice.id))[0]).toMatchObject({
      txid,
      status: 'pending',
      blockNumber: BigInt(seenAt + 2),
    });
    h.solidify();
    await scan();
    expect((await h.deposits(alice.id))[0]).toMatchObject({
      txid,
      status: 'credited',
      blockNumber: BigInt(seenAt + 2),
    });
    expect(await h.mainBalance(alice.id)).toBe(toMicro('30'));
    await h.expectBooksBalanced();
  });

  it('resumes from its cursor after a restart: deposits made while it was down are credited once', async () => {
    const alice = await h.createUser();
    h.tron.send({ to: alice.address, amount: '15' });
    h.tron.mine(1);
    await scan();
    // Down for 250 blocks; three scans catch up (100 blocks each) from where it stopped.
    h.tron.send({ to: alice.address, amount: '20' });
    h.tron.mine(250);
    const restarted = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    let last = await scanDeposits(h.ctx, restarted);
    while (last.decidedUpTo < last.solid) last = await scanDeposits(h.ctx, restarted);
    expect((await h.deposits(alice.id)).map((d) => d.status)).toEqual(['credited', 'credited']);
    expect(await h.mainBalance(alice.id)).toBe(toMicro('35'));
    await h.expectBooksBalanced();
  });

  it('lets two watchers scan at once without crediting anything twice', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => h.createUser()));
    for (let round = 0; round < 4; round += 1) {
      for (const user of users) h.tron.send({ to: user.address, amount: `${11 + round}` });
      h.tron.mine(1);
    }
    h.solidify();
    const other = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    await Promise.all([scan(), scanDeposits(h.ctx, other), scan(), scanDeposits(h.ctx, other)]);
    await Promise.all([scan(), scanDeposits(h.ctx, other)]);
    const rows = (await Promise.all(users.map((u) => h.deposits(u.id)))).flat();
    expect(rows).toHaveLength(20);
    expect(rows.every((d) => d.status === 'credited')).toBe(true);
    for (const user of users) expect(await h.mainBalance(user.id)).toBe(toMicro('50'));
    const entries = await h.prisma.ledgerEntry.count({
      where: { account: { is: { userId: { in: users.map((u) => u.id) } } } },
    });
    expect(entries).toBe(20);
    await h.expectBooksBalanced();
  });
});
