import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TronWeb, utils } from 'tronweb';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_USDT_CONTRACT, type SandboxTronHandle, startSandboxTron } from '../src/index';

// Keys of the tests' own accounts (never real money).
const ALICE_KEY = '1'.repeat(64);
const BOB_KEY = '2'.repeat(64);
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const started: SandboxTronHandle[] = [];
afterEach(async () => {
  for (const node of started.splice(0)) await node.close();
});

const start = async (options: Parameters<typeof startSandboxTron>[0] = {}) => {
  const node = await startSandboxTron({ blockIntervalMs: 0, ...options });
  started.push(node);
  return { node, tronWeb: new TronWeb({ fullHost: node.url }) };
};

const alice = TronWeb.address.fromPrivateKey(ALICE_KEY) as string;
const bob = TronWeb.address.fromPrivateKey(BOB_KEY) as string;

/** A USDT transfer built by the node (triggersmartcontract) and signed by `key`, as a wallet does. */
const usdtTransfer = async (tronWeb: TronWeb, fromKey: string, to: string, units: number) => {
  const from = TronWeb.address.fromPrivateKey(fromKey) as string;
  const built = await tronWeb.transactionBuilder.triggerSmartContract(
    SANDBOX_USDT_CONTRACT,
    'transfer(address,uint256)',
    { feeLimit: 100_000_000 },
    [
      { type: 'address', value: to },
      { type: 'uint256', value: units },
    ],
    from,
  );
  return tronWeb.trx.sign(built.transaction, fromKey);
};

const usdtBalance = async (tronWeb: TronWeb, address: string) => {
  const answer = await tronWeb.transactionBuilder.triggerConstantContract(
    SANDBOX_USDT_CONTRACT,
    'balanceOf(address)',
    {},
    [{ type: 'address', value: address }],
    address,
  );
  return BigInt(`0x${answer.constant_result[0]}`);
};

describe('sandbox TRON node (java-tron HTTP API through tronweb)', () => {
  it('produces blocks with a solidified height 19 behind, readable through tronweb', async () => {
    const { node, tronWeb } = await start();
    node.tron.mine(25);
    const head = await tronWeb.trx.getCurrentBlock();
    const solid = await tronWeb.trx.getConfirmedCurrentBlock();
    expect(head.block_header.raw_data.number).toBe(25);
    expect(solid.block_header.raw_data.number).toBe(6);
    const byNumber = await tronWeb.trx.getBlockByNumber(24);
    expect(head.block_header.raw_data.parentHash).toBe(byNumber.blockID);
    expect(byNumber.block_header.raw_data.timestamp).toBe(head.block_header.raw_data.timestamp - 3000);
    expect(byNumber.blockID.slice(0, 16)).toBe((24).toString(16).padStart(16, '0'));
    // The solidity view does not show what is not solidified yet.
    const notSolid = await tronWeb.solidityNode.request('walletsolidity/getblockbynum', { num: 7 }, 'post');
    expect(notSolid).toEqual({});
  });

  it('sends USDT from the faucet with a real Transfer log, and a look-alike token calling itself USDT', async () => {
    const { node, tronWeb } = await start();
    const { txid } = node.tron.send({ to: alice, amount: '25.5' });
    const fake = node.tron.send({ to: alice, amount: '99', token: 'fake' });
    node.tron.mine(1);
    const info = await tronWeb.trx.getUnconfirmedTransactionInfo(txid);
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info.blockNumber).toBe(1);
    expect(info.log).toHaveLength(1);
    const log = info.log[0]!;
    expect(TronWeb.address.fromHex(`41${log.address}`)).toBe(SANDBOX_USDT_CONTRACT);
    expect(log.topics[0]).toBe(TRANSFER_TOPIC);
    expect(TronWeb.address.fromHex(`41${log.topics[2]!.slice(24)}`)).toBe(alice);
    expect(BigInt(`0x${log.data}`)).toBe(25_500_000n);
    expect(await usdtBalance(tronWeb, alice)).toBe(25_500_000n);

    const fakeInfo = await tronWeb.trx.getUnconfirmedTransactionInfo(fake.txid);
    const fakeContract = TronWeb.address.fromHex(`41${fakeInfo.log[0]!.address}`);
    expect(fakeContract).not.toBe(SANDBOX_USDT_CONTRACT);
    const symbol = await tronWeb.transactionBuilder.triggerConstantContract(
      fakeContract,
      'symbol()',
      {},
      [],
      alice,
    );
    expect(
      Buffer.from(symbol.constant_result[0].slice(128), 'hex').toString('utf8').replace(/\0+$/, ''),
    ).toBe('USDT');
    expect(node.tron.balances(alice)).toMatchObject({ usdt: '25.5', fakeUsdt: '99' });
    // Until solidified, the solidity view does not know the transaction.
    expect(await tronWeb.trx.getTransactionInfo(txid)).toEqual({});
    node.tron.mine(19);
    expect((await tronWeb.trx.getTransactionInfo(txid)).blockNumber).toBe(1);
  });

  it('packs a transfer that reverts: receipt REVERT, result FAILED, no log, no tokens moved', async () => {
    const { node, tronWeb } = await start();
    const { txid } = node.tron.send({ to: alice, amount: '50', fail: true });
    node.tron.mine(1);
    const info = await tronWeb.trx.getUnconfirmedTransactionInfo(txid);
    expect(info.receipt.result).toBe('REVERT');
    expect(info.result).toBe('FAILED');
    expect(info.log).toBeUndefined();
    expect(Buffer.from(info.resMessage, 'hex').toString()).toBe('REVERT opcode executed');
    const tx = await tronWeb.trx.getTransaction(txid);
    expect(tx.ret[0].contractRet).toBe('REVERT');
    expect(node.tron.balances(alice).usdt).toBe('0');
  });

  it('broadcasts a signed transfer once; refuses a duplicate, a wrong signer and an expired one', async () => {
    const { node, tronWeb } = await start({ genesis: [{ address: alice, usdt: '100', trx: '100' }] });
    node.tron.mine(2);
    const signed = await usdtTransfer(tronWeb, ALICE_KEY, bob, 40_000_000);
    const sent = await tronWeb.trx.sendRawTransaction(signed);
    expect(sent).toMatchObject({ result: true, txid: signed.txID });
    const again = await tronWeb.trx.sendRawTransaction(signed);
    expect(again).toMatchObject({ code: 'DUP_TRANSACTION_ERROR' });
    node.tron.mine(1);
    expect(await tronWeb.trx.sendRawTransaction(signed)).toMatchObject({ code: 'DUP_TRANSACTION_ERROR' });
    expect(await usdtBalance(tronWeb, bob)).toBe(40_000_000n);
    // Bob held no USDT: 130,285 energy burnt at 210 sun (27.36 TRX); the bandwidth was free.
    expect(node.tron.balances(alice)).toMatchObject({ usdt: '60', trx: '72.64015' });

    // Bob's key signing Alice's transfer: the node recovers the signer and refuses.
    const forged = await usdtTransfer(tronWeb, ALICE_KEY, bob, 1_000_000);
    const { signature: _s, ...unsigned } = forged;
    const bobSigned = utils.crypto.signTransaction(BOB_KEY, unsigned as never);
    const refused = await tronWeb.trx.sendRawTransaction(bobSigned as never);
    expect(refused).toMatchObject({ code: 'SIGERROR' });
    expect(Buffer.from((refused as { message: string }).message, 'hex').toString()).toContain(bob);

    // 60 s of chain time (20 blocks) later the transaction has expired.
    const late = await usdtTransfer(tronWeb, ALICE_KEY, bob, 1_000_000);
    node.tron.mine(20);
    expect(await tronWeb.trx.sendRawTransaction(late)).toMatchObject({
      code: 'TRANSACTION_EXPIRATION_ERROR',
    });
    expect(await usdtBalance(tronWeb, bob)).toBe(40_000_000n);
  });

  it('forks away unsolidified blocks: their transactions leave the chain and balances roll back', async () => {
    const { node, tronWeb } = await start();
    node.tron.mine(30);
    const { txid } = node.tron.send({ to: alice, amount: '12' });
    node.tron.mine(2);
    const before = await tronWeb.trx.getBlockByNumber(31);
    expect((await tronWeb.trx.getUnconfirmedTransactionInfo(txid)).blockNumber).toBe(31);
    expect(() => node.tron.chain.fork(20)).toThrow(/unsolidified/);
    const forked = node.tron.chain.fork(2);
    expect(forked).toEqual({ removed: [txid], head: 33 });
    expect(await tronWeb.trx.getUnconfirmedTransactionInfo(txid)).toEqual({});
    expect((await tronWeb.trx.getBlockByNumber(31)).blockID).not.toBe(before.blockID);
    expect(node.tron.balances(alice).usdt).toBe('0');

    // Requeued, the transaction lands again after the new branch's blocks.
    const again = node.tron.send({ to: alice, amount: '7' });
    node.tron.mine(1);
    expect(node.tron.chain.fork(1, true)).toEqual({ removed: [again.txid], head: 35 });
    expect(await tronWeb.trx.getUnconfirmedTransactionInfo(again.txid)).toEqual({});
    node.tron.mine(1);
    expect((await tronWeb.trx.getUnconfirmedTransactionInfo(again.txid)).blockNumber).toBe(36);
    expect(node.tron.balances(alice).usdt).toBe('7');
  });

  it('keeps the chain across a restart with a journal file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-tron-'));
    try {
      const stateFile = join(dir, 'tron.jsonl');
      const first = await startSandboxTron({
        blockIntervalMs: 0,
        stateFile,
        genesis: [{ address: bob, usdt: '5' }],
      });
      first.tron.send({ to: alice, amount: '30' });
      first.tron.mine(25);
      first.tron.chain.fork(3);
      const head = first.tron.chain.head;
      await first.close();

      const second = await start({ stateFile });
      expect(second.node.tron.chain.head.blockID).toBe(head.blockID);
      expect(second.node.tron.balances(alice).usdt).toBe('30');
      expect(second.node.tron.balances(bob).usdt).toBe('5');
      second.node.tron.mine(1);
      expect(second.node.tron.chain.head.parentHash).toBe(head.blockID);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the control API: send, produce blocks, balances', async () => {
    const { node } = await start();
    const post = (path: string, body: object) =>
      fetch(`${node.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const sent = await post('/_sandbox/tron/send', { to: alice, amount: '11' });
    expect(sent.status).toBe(200);
    expect(await (await post('/_sandbox/tron/send', { to: 'Tnope', amount: '11' })).json()).toHaveProperty(
      'error',
    );
    const blocks = await (await post('/_sandbox/tron/blocks', { count: 2 })).json();
    expect(blocks).toMatchObject({ blocks: [1, 2], head: 2, solid: 0 });
    const balances = await (await fetch(`${node.url}/_sandbox/tron/balances/${alice}`)).json();
    expect(balances).toMatchObject({ address: alice, usdt: '11' });
  });

  it('serves block headers and both heights without transactions (getblock detail false, getnodeinfo)', async () => {
    const { node, tronWeb } = await start();
    await tronWeb.trx.sendRawTransaction(await usdtTransfer(tronWeb, node.tron.faucet.key, alice, 5));
    node.tron.mine(25);
    const info = (await tronWeb.fullNode.request('wallet/getnodeinfo')) as Record<string, string>;
    const [head, solid] = [node.tron.chain.head, node.tron.chain.block(6)!];
    expect(info).toMatchObject({
      block: `Num:25,ID:${head.blockID}`,
      solidityBlock: `Num:6,ID:${solid.blockID}`,
    });
    const header = await tronWeb.fullNode.request(
      'wallet/getblock',
      { id_or_num: '1', detail: false },
      'post',
    );
    expect(header).toMatchObject({ blockID: node.tron.chain.block(1)!.blockID });
    expect(header).not.toHaveProperty('transactions');
    const solidHeader = await tronWeb.solidityNode.request(
      'walletsolidity/getblock',
      { detail: false },
      'post',
    );
    expect(solidHeader).toMatchObject({ blockID: solid.blockID, block_header: { raw_data: { number: 6 } } });
  });

  it('counts the requests to its API per path and key, and refuses them over a budget like TronGrid', async () => {
    const { node } = await start();
    const call = (path: string, key?: string) =>
      fetch(`${node.url}${path}`, { headers: key ? { 'TRON-PRO-API-KEY': key } : {} });
    const control = (method: string, path: string, body?: object) =>
      fetch(`${node.url}/_sandbox/tron/${path}`, {
        method,
        ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      }).then((response) => response.json());
    await call('/wallet/getnodeinfo', 'k1');
    await call('/walletsolidity/getnowblock', 'k1');
    await call('/wallet/getnodeinfo');
    await call('/_sandbox/tron/status');
    expect(await control('GET', 'requests')).toMatchObject({
      total: 3,
      byPath: { '/wallet/getnodeinfo': 2, '/walletsolidity/getnowblock': 1 },
      byKey: { k1: 2, '(none)': 1 },
      withoutApiKey: 1,
      limited: 0,
    });

    // Two requests per key and minute: the third of k1 is refused until the window is over.
    await control('POST', 'quota', { requests: 2, windowMs: 60_000 });
    expect((await call('/wallet/getnodeinfo', 'k1')).status).toBe(200);
    expect((await call('/wallet/getnodeinfo', 'k1')).status).toBe(200);
    const refused = await call('/wallet/getnodeinfo', 'k1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(((await refused.json()) as { Error: string }).Error).toMatch(/suspended for \d+s/);
    expect((await call('/wallet/getnodeinfo', 'k2')).status).toBe(200);
    await control('POST', 'quota', { requests: 0, windowMs: 60_000, status: 403 });
    const suspended = await call('/wallet/getnodeinfo', 'k2');
    expect(suspended.status).toBe(403);
    expect(suspended.headers.get('retry-after')).toBeNull();
    await control('DELETE', 'quota');
    expect((await call('/wallet/getnodeinfo', 'k1')).status).toBe(200);
    expect(await control('GET', 'requests')).toMatchObject({ total: 9, limited: 2, quota: null });
    expect(await control('DELETE', 'requests')).toMatchObject({ total: 0, byPath: {} });
  });

  it('tells a contract from an account: getcontract (visible) and getaccount type Contract', async () => {
    const { node } = await start();
    const post = async (path: string, body: object) =>
      (await fetch(`${node.url}/wallet/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, unknown>;
    expect(await post('getcontract', { value: SANDBOX_USDT_CONTRACT, visible: true })).toMatchObject({
      contract_address: SANDBOX_USDT_CONTRACT,
      abi: { entrys: expect.any(Array) },
    });
    const hex = (await post('getcontract', { value: SANDBOX_USDT_CONTRACT })).contract_address as string;
    expect(hex).toBe(utils.address.toHex(SANDBOX_USDT_CONTRACT).toLowerCase());
    expect(await post('getcontract', { value: alice, visible: true })).toEqual({});
    expect(await post('getaccount', { address: SANDBOX_USDT_CONTRACT, visible: true })).toMatchObject({
      address: SANDBOX_USDT_CONTRACT,
      type: 'Contract',
    });
  });
});
