import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TronWeb } from 'tronweb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ENERGY_TRANSFER_TO_EMPTY,
  ENERGY_TRANSFER_TO_HOLDER,
  SANDBOX_USDT_CONTRACT,
  type SandboxTronHandle,
  startSandboxTron,
} from '../src/index';

// Keys of the tests' own accounts (never real money).
const ALICE_KEY = '3'.repeat(64);
const alice = TronWeb.address.fromPrivateKey(ALICE_KEY) as string;
const BOB = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const CAROL = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

const started: SandboxTronHandle[] = [];
afterEach(async () => {
  for (const node of started.splice(0)) await node.close();
});

const start = async (options: Parameters<typeof startSandboxTron>[0] = {}) => {
  const node = await startSandboxTron({ blockIntervalMs: 0, ...options });
  started.push(node);
  node.tron.mine(2);
  const tronWeb = new TronWeb({ fullHost: node.url });
  const api = async (path: string, body: object) =>
    (await fetch(`${node.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Record<string, unknown>;
  /** Signs and broadcasts a USDT transfer from Alice with this fee limit; returns its txid. */
  const send = async (to: string, units: number, feeLimit = 100_000_000) => {
    const built = await tronWeb.transactionBuilder.triggerSmartContract(
      SANDBOX_USDT_CONTRACT,
      'transfer(address,uint256)',
      { feeLimit },
      [
        { type: 'address', value: to },
        { type: 'uint256', value: units },
      ],
      alice,
    );
    const signed = await tronWeb.trx.sign(built.transaction, ALICE_KEY);
    expect(await tronWeb.trx.sendRawTransaction(signed)).toMatchObject({ result: true });
    node.tron.mine(1);
    return tronWeb.trx.getUnconfirmedTransactionInfo(signed.txID);
  };
  return { node, tronWeb, api, send };
};

const transferParams = (to: string, units: number) => ({
  owner_address: alice,
  contract_address: SANDBOX_USDT_CONTRACT,
  function_selector: 'transfer(address,uint256)',
  parameter: TronWeb.address.toHex(to).slice(2).padStart(64, '0') + units.toString(16).padStart(64, '0'),
  visible: true,
});

describe('sandbox TRON node: resources as mainnet charges them', () => {
  it('answers getaccount, getaccountresource and getchainparameters in java-tron shapes', async () => {
    const { api } = await start({ genesis: [{ address: alice, trx: '50' }] });
    const account = await api('/wallet/getaccount', { address: alice, visible: true });
    expect(account).toMatchObject({ address: alice, balance: 50_000_000 });
    const resources = await api('/wallet/getaccountresource', { address: alice, visible: true });
    expect(resources).toMatchObject({ freeNetLimit: 600, TotalEnergyLimit: 180_000_000_000 });
    // Fields at zero are left out, as java-tron prints them.
    expect(resources).not.toHaveProperty('EnergyLimit');
    expect(await api('/wallet/getaccountresource', { address: BOB, visible: true })).toEqual({});
    expect(await api('/wallet/getaccount', { address: BOB, visible: true })).toEqual({});
    const { chainParameter } = (await api('/wallet/getchainparameters', {})) as {
      chainParameter: Array<{ key: string; value?: number }>;
    };
    const parameter = (key: string) => chainParameter.find((p) => p.key === key)?.value;
    expect(parameter('getEnergyFee')).toBe(210);
    expect(parameter('getTransactionFee')).toBe(1000);
    expect(parameter('getCreateNewAccountFeeInSystemContract')).toBe(1_000_000);
  });

  it('charges a transfer to a recipient without USDT twice the energy, and estimates it so', async () => {
    const { api, send, node } = await start({ genesis: [{ address: alice, usdt: '100', trx: '100' }] });
    const estimate = await api('/wallet/estimateenergy', transferParams(BOB, 1_000_000));
    expect(estimate).toEqual({ result: { result: true }, energy_required: ENERGY_TRANSFER_TO_EMPTY });
    const first = await send(BOB, 1_000_000);
    expect(first.receipt).toMatchObject({
      result: 'SUCCESS',
      energy_usage_total: ENERGY_TRANSFER_TO_EMPTY,
      energy_fee: ENERGY_TRANSFER_TO_EMPTY * 210,
    });
    expect(first.fee).toBe(ENERGY_TRANSFER_TO_EMPTY * 210);
    // Bob holds USDT now: the same transfer costs the base energy.
    const constant = await api('/wallet/triggerconstantcontract', transferParams(BOB, 1_000_000));
    expect(constant.energy_used).toBe(ENERGY_TRANSFER_TO_HOLDER);
    const second = await send(BOB, 1_000_000);
    expect(second.receipt).toMatchObject({ energy_usage_total: ENERGY_TRANSFER_TO_HOLDER });
    // The first transfer took 345 of the 600 free bytes: the second's are burnt (1,000 sun each).
    expect(second.fee).toBe(ENERGY_TRANSFER_TO_HOLDER * 210 + 345_000);
    const burnt = (ENERGY_TRANSFER_TO_EMPTY + ENERGY_TRANSFER_TO_HOLDER) * 210 + 345_000;
    expect(node.tron.balances(alice).trx).toBe(String((100_000_000 - burnt) / 1e6));
    // A transfer beyond the balance cannot be estimated (it would revert).
    const refused = await api('/wallet/estimateenergy', transferParams(BOB, 500_000_000));
    expect(refused).toMatchObject({ result: { code: 'OTHER_ERROR' } });
    expect(refused).not.toHaveProperty('energy_required');
  });

  it('uses staked energy first and burns TRX only for the rest', async () => {
    const { node, send, api } = await start({ genesis: [{ address: alice, usdt: '100', trx: '100' }] });
    node.tron.send({ to: CAROL, amount: '1' });
    node.tron.adjust({ address: alice, energyLimit: 100_000 });
    const first = await send(CAROL, 1_000_000);
    expect(first.receipt).toMatchObject({ energy_usage: ENERGY_TRANSFER_TO_HOLDER });
    expect(first.receipt.energy_fee).toBeUndefined();
    expect(first.fee).toBeUndefined();
    const left = 100_000 - ENERGY_TRANSFER_TO_HOLDER;
    expect(await api('/wallet/getaccountresource', { address: alice, visible: true })).toMatchObject({
      EnergyLimit: 100_000,
      EnergyUsed: ENERGY_TRANSFER_TO_HOLDER,
    });
    // The rest of the stake (plus the little that recovered in one block's 3 s), then TRX.
    const second = await send(CAROL, 1_000_000);
    const fromStake = second.receipt.energy_usage as number;
    expect(fromStake).toBeGreaterThanOrEqual(left);
    expect(fromStake).toBeLessThan(left + 10);
    expect(second.receipt).toMatchObject({
      energy_fee: (ENERGY_TRANSFER_TO_HOLDER - fromStake) * 210,
      energy_usage_total: ENERGY_TRANSFER_TO_HOLDER,
    });
  });

  it('fails OUT_OF_ENERGY when the fee limit is too low, burning what it allowed, moving nothing', async () => {
    const { node, send } = await start({ genesis: [{ address: alice, usdt: '100', trx: '100' }] });
    const feeLimit = 10_000_000; // 10 TRX: 47,619 energy, not the 130,285 the transfer needs
    const info = await send(BOB, 5_000_000, feeLimit);
    expect(info.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_usage_total: 47_619 });
    expect(info.result).toBe('FAILED');
    expect(info.fee).toBe(47_619 * 210);
    expect(node.tron.balances(BOB).usdt).toBe('0');
    expect(node.tron.balances(alice)).toMatchObject({ usdt: '100', trx: String(100 - (47_619 * 210) / 1e6) });
  });

  it('takes bandwidth from the free 600 a day, then burns 1,000 sun a byte', async () => {
    const { node, send } = await start({ genesis: [{ address: alice, usdt: '100', trx: '1000' }] });
    node.tron.send({ to: CAROL, amount: '1' });
    const first = await send(CAROL, 1_000_000);
    expect(first.receipt).toMatchObject({ net_usage: 345 });
    expect(node.tron.balances(alice).freeNetUsed).toBe(345);
    // 255 free bytes left: not enough for 345, so the whole transaction's bytes are burnt.
    const second = await send(CAROL, 1_000_000);
    expect(second.receipt).toMatchObject({ net_fee: 345_000 });
    expect(second.fee).toBe(345_000 + ENERGY_TRANSFER_TO_HOLDER * 210);
  });

  it('activates an account with its first TRX for 1.1 TRX, and refuses a sender that cannot pay bandwidth', async () => {
    const { node, tronWeb } = await start({ genesis: [{ address: alice, trx: '10' }] });
    const transfer = async (to: string, sun: number, key = ALICE_KEY) => {
      const from = TronWeb.address.fromPrivateKey(key) as string;
      const built = await tronWeb.transactionBuilder.sendTrx(to, sun, from);
      return tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(built, key));
    };
    const sent = await transfer(BOB, 2_000_000);
    expect(sent).toMatchObject({ result: true });
    node.tron.mine(1);
    const info = await tronWeb.trx.getUnconfirmedTransactionInfo(sent.txid);
    expect(info).toMatchObject({ fee: 1_100_000, receipt: { net_fee: 100_000 } });
    expect(node.tron.balances(alice).trx).toBe('6.9');
    expect(node.tron.balances(BOB)).toMatchObject({ trx: '2', activated: true });
    // Without TRX: creating Carol's account cannot use free bandwidth, so the node refuses it for
    // bandwidth; a transfer to Bob's existing account passes bandwidth but not the balance check.
    node.tron.adjust({ address: alice, trx: '0' });
    expect(await transfer(CAROL, 1)).toMatchObject({ code: 'BANDWITH_ERROR' });
    expect(await transfer(BOB, 1)).toMatchObject({ code: 'CONTRACT_VALIDATE_ERROR' });
  });

  it('sets an account through the control API and replays it after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-tron-'));
    try {
      const stateFile = join(dir, 'tron.jsonl');
      const first = await startSandboxTron({
        blockIntervalMs: 0,
        stateFile,
        genesis: [{ address: alice, usdt: '7' }],
      });
      const answer = await fetch(`${first.url}/_sandbox/tron/accounts/${alice}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ usdt: '0', trx: '3.5', energyLimit: 5000 }),
      });
      expect(await answer.json()).toMatchObject({
        usdt: '0',
        trx: '3.5',
        energyLimit: 5000,
        activated: true,
      });
      const bad = await fetch(`${first.url}/_sandbox/tron/accounts/${alice}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ usdt: 'lots' }),
      });
      expect(bad.status).toBe(400);
      first.tron.mine(3);
      await first.close();
      const second = await start({ stateFile });
      expect(second.node.tron.balances(alice)).toMatchObject({ usdt: '0', trx: '3.5', energyLimit: 5000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
