import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { toMicro } from '@gridbot/ledger';
import { depositsCredited, withdrawalsProcessed } from '@gridbot/metrics';
import { type SandboxTronHandle, startSandboxTron } from '@gridbot/sandbox';
import {
  checkWalletsMatchXpub,
  demoHotWalletKey,
  demoXpub,
  deriveDepositAddress,
  loadWatcherKeys,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher } from '../src/start-watcher';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

let h: ChainHarness;
let ticking: SandboxTronHandle | undefined;
beforeAll(async () => {
  h = await createChainHarness();
});
afterAll(async () => {
  await ticking?.close();
  await h.close();
});

/** What /metrics shows for a counter (docs/operations.md#metrics): its total, by one label value. */
const counted = async (counter: typeof withdrawalsProcessed | typeof depositsCredited, outcome?: string) =>
  (await counter.get()).values.find((v) => outcome === undefined || v.labels.outcome === outcome)?.value ?? 0;

describe('the watcher loop', () => {
  it('credits deposits and sends withdrawals on its own against a node producing blocks', async () => {
    const before = {
      credited: await counted(depositsCredited),
      sent: await counted(withdrawalsProcessed, 'sent'),
      confirmed: await counted(withdrawalsProcessed, 'confirmed'),
    };
    // A node of its own with a fast block timer (chain time still 3 s a block).
    ticking = await startSandboxTron({
      blockIntervalMs: 20,
      genesis: [{ address: h.hot.address, usdt: '1000', trx: '1000' }],
    });
    const alice = await h.createUser();
    const watcher = startWatcher({ ctx: h.ctx, nodeUrl: ticking.url, hot: h.hot, intervalMs: 50 });
    try {
      ticking.tron.send({ to: alice.address, amount: '42' });
      await expect
        .poll(() => h.mainBalance(alice.id), { timeout: 20_000, interval: 100 })
        .toBe(toMicro('42'));
      const w = await h.approvedWithdrawal({
        userId: alice.id,
        amount: '20',
        to: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
      });
      await expect
        .poll(async () => (await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: w.id } })).status, {
          timeout: 40_000,
          interval: 100,
        })
        .toBe('confirmed');
      expect(ticking.tron.balances('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7').usdt).toBe('19');
      expect(await counted(depositsCredited)).toBe(before.credited + 1);
      expect(await counted(withdrawalsProcessed, 'sent')).toBe(before.sent + 1);
      expect(await counted(withdrawalsProcessed, 'confirmed')).toBe(before.confirmed + 1);
    } finally {
      await watcher.stop();
    }
    await h.expectBooksBalanced();
    // A busy CI machine: a deposit, a withdrawal and its confirmation on a node of its own.
  }, 90_000);
});

describe('the watcher keys', () => {
  it('uses the demo keys in demo mode only; outside it names the missing variable', () => {
    const demo = loadWatcherKeys(loadEnv({ DEMO: '1', NODE_ENV: 'test' }));
    expect(demo.hot.address).toBe(tronAddressOfPrivateKey(demoHotWalletKey()));
    expect(demo.xpub).toBe(demoXpub());
    const production = loadEnv({ NODE_ENV: 'test' });
    expect(() => loadWatcherKeys(production)).toThrow(ConfigError);
    expect(() => loadWatcherKeys(production)).toThrow(/HOT_WALLET_KEY_FILE: required outside demo mode/);
    expect(() => loadWatcherKeys(production)).toThrow(/WALLET_XPUB: required outside demo mode/);
  });

  it('reads the hot wallet key from its file and refuses a file without a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hot-key-'));
    try {
      const good = join(dir, 'good.key');
      const bad = join(dir, 'bad.key');
      writeFileSync(good, `${demoHotWalletKey()}\n`);
      writeFileSync(bad, 'not a key\n');
      const env = (file: string) =>
        loadEnv({ NODE_ENV: 'test', HOT_WALLET_KEY_FILE: file, WALLET_XPUB: demoXpub() });
      expect(loadWatcherKeys(env(good)).hot.privateKey).toBe(demoHotWalletKey());
      expect(() => loadWatcherKeys(env(bad))).toThrow(/does not hold a private key/);
      expect(() => loadWatcherKeys(env(join(dir, 'missing.key')))).toThrow(/cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an extended public key the wallets were not derived from', async () => {
    await h.createUser();
    await expect(checkWalletsMatchXpub(h.prisma, demoXpub())).resolves.toBeUndefined();
    // Another BIP-39 test phrase: its account key derives other addresses.
    const other = utils.ethersUtils.ethersHDNodeWallet
      .fromPhrase(
        'legal winner thank year wave sausage worth useful legal winner thank yellow',
        undefined,
        "m/44'/195'/0'",
      )
      .neuter().extendedKey;
    await expect(checkWalletsMatchXpub(h.prisma, other)).rejects.toThrow(
      /WALLET_XPUB: user \d+'s deposit address/,
    );
    expect(deriveDepositAddress(demoXpub(), 1)).not.toBe(deriveDepositAddress(other, 1));
  });
});
