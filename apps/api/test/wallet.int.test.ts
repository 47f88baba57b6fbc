import { maskUsername } from '@gridbot/domain';
import { SYSTEM_ACCOUNTS } from '@gridbot/ledger';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import {
  createExchangeClients,
  createUserWallet,
  demoXpub,
  deriveDepositAddress,
  requestWithdrawal,
  saveWithdrawAddress,
} from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import {
  balanceOf,
  bookDeposit,
  expectBooksIntact,
  moneySnapshot,
  WITHDRAW_ADDRESS,
} from './support/wallet-fixtures';

let sandbox: SandboxExchangeHandle;
let t: TestApp;

// A valid TRON address (the USDT contract's own) and the same with a broken checksum.
const BAD_CHECKSUM = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u';

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, tickMs: 0 });
  t = await createTestApp(
    {
      WALLET_XPUB: demoXpub(),
      WITHDRAW_FEE_USDT: '1',
      WITHDRAW_AUTO_APPROVE_USDT: '50',
      WITHDRAW_ADDRESS_LOCK_HOURS: '0',
    },
    { sandboxUrl: sandbox.url },
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

let nextUser = 0;
const newUser = async () => {
  const user = await t.createUser({ username: `w${++nextUser}_${Date.now() % 100000}` });
  return { user, headers: await t.authHeader(user) };
};

const post = (who: { headers: Record<string, string> }, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...headers } });

/** Runs a refused call and proves it moved and wrote nothing. */
const refused = async (call: () => Promise<{ statusCode: number; json: () => unknown }>) => {
  const before = await moneySnapshot(t.prisma);
  const response = await call();
  expect(await moneySnapshot(t.prisma)).toEqual(before);
  await expectBooksIntact(t.prisma);
  return { status: response.statusCode, body: response.json() as { code: string; message: string } };
};

describe('deposit address', () => {
  it('answers DEPOSIT_ADDRESS_NOT_FOUND before create_wallet', async () => {
    const a = await newUser();
    const response = await post(a, '/wallet/get_address');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      code: 'DEPOSIT_ADDRESS_NOT_FOUND',
      message: 'Адрес депозита не найден',
    });
  });

  it('derives one address per user from the xpub, idempotently, and shows the deposit rules', async () => {
    const a = await newUser();
    const first = await post(a, '/wallet/create_wallet');
    expect(first.statusCode).toBe(200);
    const address = deriveDepositAddress(demoXpub(), a.user.id);
    expect(first.json()).toMatchObject({ depositAddress: address, network: 'TRC20', created: true });
    const again = await post(a, '/wallet/create_wallet');
    expect(again.json()).toMatchObject({ depositAddress: address, created: false });
    const shown = await post(a, '/wallet/get_address');
    expect(shown.json()).toEqual({
      depositAddress: address,
      network: 'TRC20',
      token: 'USDT',
      contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      minDeposit: '11',
      confirmations: 19,
    });
    const b = await newUser();
    const other = await post(b, '/wallet/create_wallet');
    expect(other.json().depositAddress).not.toBe(address);
  });

  it('creates the wallet once under concurrent calls', async () => {
    const a = await newUser();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(a, '/wallet/create_wallet')));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(answers.filter((r) => r.json().created)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.json().depositAddress)).size).toBe(1);
    expect(await t.prisma.wallet.count({ where: { userId: a.user.id } })).toBe(1);
  });

  it('refuses to derive without the operator key outside demo mode, and uses the demo phrase in demo', async () => {
    const a = await newUser();
    const env = { ...t.ctx.env, WALLET_XPUB: undefined };
    await expect(createUserWallet({ ...t.ctx, env }, { userId: a.user.id })).rejects.toMatchObject({
      code: 'WALLET_NOT_CONFIGURED',
      status: 503,
    });
    expect(await t.prisma.wallet.count({ where: { userId: a.user.id } })).toBe(0);
    const demo = await createUserWallet({ ...t.ctx, env: { ...env, DEMO: true } }, { userId: a.user.id });
    expect(demo.depositAddress).toBe(deriveDepositAddress(demoXpub(), a.user.id));
  });
});

describe('withdrawal address', () => {
  it('saves the first address (creating the wallet), refuses a second add and updates it', async () => {
    const a = await newUser();
    const added = await post(a, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ withdrawAddress: WITHDRAW_ADDRESS, usableFrom: expect.any(String) });
    expect((await t.prisma.wallet.findUniqueOrThrow({ where: { userId: a.user.id } })).withdrawAddress).toBe(
      WITHDRAW_ADDRESS,
    );
    const other = 'TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA';
    // Each user calls each address endpoint once (1 / 1.5 s): the next users start with a saved address.
    const withSavedAddress = async () => {
      const who = await newUser();
      await saveWithdrawAddress(t.ctx, { userId: who.user.id, address: WITHDRAW_ADDRESS });
      return who;
    };
    const c = await withSavedAddress();
    const exists = await refused(() => post(c, `/wallet/add_withdraw_address?address=${other}`));
    expect(exists).toMatchObject({ status: 409, body: { code: 'WITHDRAW_ADDRESS_EXISTS' } });
    const d = await withSavedAddress();
    const updated = await post(d, `/wallet/update_withdraw_address?address=${other}`);
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ withdrawAddress: other, usableFrom: expect.any(String) });
  });

  it('refuses a bad checksum, a non-TRON address, the own deposit address and an update without an address', async () => {
    const a = await newUser();
    const checksum = await refused(() => post(a, `/wallet/add_withdraw_address?address=${BAD_CHECKSUM}`));
    expect(checksum).toMatchObject({
      status: 400,
      body: { code: 'WITHDRAW_ADDRESS_FORMAT', message: 'Withdrawal address format error' },
    });
    const b = await newUser();
    const evm = await refused(() =>
      post(b, '/wallet/add_withdraw_address?address=0x742d35Cc6634C0532925a3b844Bc454e4438f44e'),
    );
    expect(evm.status).toBe(400);
    expect(JSON.stringify(evm.body)).toContain('Withdrawal address format error');
    const c = await newUser();
    const own = (await createUserWallet(t.ctx, { userId: c.user.id })).depositAddress;
    const self = await refused(() => post(c, `/wallet/add_withdraw_address?address=${own}`));
    expect(self).toMatchObject({ status: 400, body: { code: 'WITHDRAW_ADDRESS_IS_DEPOSIT' } });
    const d = await newUser();
    const missing = await refused(() =>
      post(d, `/wallet/update_withdraw_address?address=${WITHDRAW_ADDRESS}`),
    );
    expect(missing).toMatchObject({ status: 422, body: { code: 'WITHDRAW_ADDRESS_MISSING' } });
  });
});

describe('withdraw_money', () => {
  const withAddress = async (usdt: string) => {
    const who = await newUser();
    await bookDeposit(t.prisma, who.user, usdt);
    await post(who, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`);
    return who;
  };

  // Found by the hostile-input fuzz (the same shape as the transfer's): the first withdrawal ever,
  // refused, used to open the system accounts it would have used.
  it('a refused first withdrawal leaves the ledger as it was, down to its accounts', async () => {
    const a = await withAddress('12');
    expect(await t.prisma.ledgerAccount.count({ where: { code: SYSTEM_ACCOUNTS.withdrawalsHeld } })).toBe(0);
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=13'))).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS' },
    });
    expect(await t.prisma.ledgerAccount.count({ where: { code: SYSTEM_ACCOUNTS.withdrawalsHeld } })).toBe(0);
  });

  it('holds the amount, approves up to the automatic limit and leaves the rest pending', async () => {
    const a = await withAddress('200');
    const small = await post(a, '/wallet/withdraw_money?summ=20');
    expect(small.statusCode).toBe(200);
    expect(small.json().withdrawal).toMatchObject({
      type: 'withdraw',
      status: 'approved',
      amount: '20',
      networkFee: '1',
      receives: '19',
      address: WITHDRAW_ADDRESS,
      txid: null,
    });
    expect(small.json().balances).toEqual({ main: '180', fee: '0', held: '20' });
    const row = await t.prisma.withdrawal.findFirstOrThrow({ where: { userId: a.user.id } });
    expect(row).toMatchObject({ decidedBy: 'auto', status: 'approved', requestKey: null });
    expect(row.approvedAt).not.toBeNull();
    expect(row.holdTransferId).not.toBeNull();
    const large = await post(a, '/wallet/withdraw_money?summ=50.000001');
    expect(large.json().withdrawal.status).toBe('pending');
    expect(large.json().balances).toEqual({ main: '129.999999', fee: '0', held: '70.000001' });
    await expectBooksIntact(t.prisma);
  });

  it('refuses without an address, under 11 USDT, beyond the balance and to a missing exchange connection', async () => {
    const a = await newUser();
    await bookDeposit(t.prisma, a.user, '30');
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=12'))).toMatchObject({
      status: 422,
      body: { code: 'WITHDRAW_ADDRESS_MISSING' },
    });
    await post(a, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`);
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=10.999999'))).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=11.1234567'))).toMatchObject({
      status: 400,
    });
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=30.000001'))).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS', message: "You don't have enough money on your account" },
    });
    expect(await refused(() => post(a, '/wallet/withdraw_money?summ=12&to=exchange'))).toMatchObject({
      status: 422,
      body: { code: 'NO_API_CONNECTION' },
    });
    const b = await newUser();
    expect(await refused(() => post(b, '/wallet/withdraw_money?summ=11'))).toMatchObject({ status: 422 });
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(30_000_000n);
  });

  it('withdraws to the deposit address of the user’s own exchange account (withdraw_exchange)', async () => {
    const a = await newUser();
    await bookDeposit(t.prisma, a.user, '40');
    const keys = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const saved = await t.app.inject({
      method: 'POST',
      url: '/profile/api_key',
      headers: a.headers,
      payload: { apiKey: keys.apiKey, secretKey: keys.secret },
    });
    expect(saved.statusCode).toBe(200);
    const response = await post(a, '/wallet/withdraw_money?summ=25&to=exchange');
    expect(response.statusCode).toBe(200);
    const withdrawal = response.json().withdrawal;
    expect(withdrawal).toMatchObject({ type: 'withdraw_exchange', status: 'approved', receives: '24' });
    expect(withdrawal.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    // The exchange names the same address every time.
    const account = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: a.user.id } });
    const client = await t.ctx.exchanges.forAccount(account.id);
    expect((await client.fetchDepositAddress('USDT', 'TRC20')).address).toBe(withdrawal.address);
    // An exchange that does not answer: EXCHANGE_UNAVAILABLE, nothing held.
    const offline = createExchangeClients({
      prisma: t.prisma,
      secretBox: t.ctx.secrets,
      sandboxUrl: 'http://127.0.0.1:9',
    });
    const before = await moneySnapshot(t.prisma);
    await expect(
      requestWithdrawal({ ...t.ctx, exchanges: offline }, { userId: a.user.id, summ: '12', to: 'exchange' }),
    ).rejects.toMatchObject({ code: 'EXCHANGE_UNAVAILABLE' });
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    await expectBooksIntact(t.prisma);
  });

  it('moves money once for a retried request with the same Idempotency-Key', async () => {
    const a = await withAddress('100');
    const key = { 'idempotency-key': 'retry-0001-withdraw' };
    const first = await post(a, '/wallet/withdraw_money?summ=15', key);
    const retry = await post(a, '/wallet/withdraw_money?summ=15', key);
    expect(first.statusCode).toBe(200);
    expect(retry.json().withdrawal.id).toBe(first.json().withdrawal.id);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(a, '/wallet/withdraw_money?summ=12', { 'idempotency-key': 'retry-0002' }),
      ),
    );
    expect(concurrent.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(concurrent.map((r) => r.json().withdrawal.id)).size).toBe(1);
    expect(await t.prisma.withdrawal.count({ where: { userId: a.user.id } })).toBe(2);
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(73_000_000n);
    const other = await refused(() => post(a, '/wallet/withdraw_money?summ=16', key));
    expect(other).toMatchObject({ status: 409, body: { code: 'REQUEST_CONFLICT' } });
    // Another user's identical key is their own request.
    const b = await withAddress('20');
    expect((await post(b, '/wallet/withdraw_money?summ=15', key)).statusCode).toBe(200);
    await expectBooksIntact(t.prisma);
  });
});

describe('inner_transaction and the recipient lookup', () => {
  it('moves main to main at once, shows who received it, and the recipient sees transfer_in', async () => {
    const a = await newUser();
    const b = await newUser();
    await bookDeposit(t.prisma, a.user, '50');
    const lookup = await post(a, `/wallet/recipient?uid=${b.user.uid}`);
    // The sender sees the recipient masked (docs/wallet.md#internal-transfer; wallet-recipient.int.test.ts).
    const masked = maskUsername(b.user.username);
    expect(lookup.json()).toEqual({ uid: b.user.uid, maskedUsername: masked });
    const sent = await post(a, `/wallet/inner_transaction?summ=12.5&to_user=${b.user.uid}`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      recipient: { uid: b.user.uid, maskedUsername: masked },
      balances: { main: '37.5', fee: '0', held: '0' },
      transaction: {
        type: 'transfer_out',
        status: 'confirmed',
        balance: 'main',
        amount: '-12.5',
        counterparty: { uid: b.user.uid, username: masked },
      },
    });
    expect(await balanceOf(t.prisma, b.user, 'main')).toBe(12_500_000n);
    const theirs = await post(b, '/wallet');
    expect(theirs.json().transactions.items).toEqual([
      expect.objectContaining({
        type: 'transfer_in',
        amount: '12.5',
        counterparty: { uid: a.user.uid, username: a.user.username },
      }),
    ]);
    await expectBooksIntact(t.prisma);
  });

  it('refuses yourself, a missing recipient, less than 1 USDT and more than main', async () => {
    const a = await newUser();
    const b = await newUser();
    await bookDeposit(t.prisma, a.user, '5');
    expect(
      await refused(() => post(a, `/wallet/inner_transaction?summ=1&to_user=${a.user.uid}`)),
    ).toMatchObject({
      status: 400,
      body: { code: 'TRANSFER_TO_SELF', message: 'You cannot transfer to yourself' },
    });
    expect(await refused(() => post(a, '/wallet/inner_transaction?summ=1&to_user=99999999'))).toMatchObject({
      status: 404,
      body: { code: 'TRANSFER_RECIPIENT_MISSING', message: 'User not found' },
    });
    expect(
      await refused(() => post(a, `/wallet/inner_transaction?summ=0.99&to_user=${b.user.uid}`)),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await refused(() => post(a, `/wallet/inner_transaction?summ=5.000001&to_user=${b.user.uid}`)),
    ).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS' },
    });
    const nobody = await newUser();
    expect(
      await refused(() => post(nobody, `/wallet/inner_transaction?summ=1&to_user=${b.user.uid}`)),
    ).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS' },
    });
    expect((await post(a, `/wallet/recipient?uid=${a.user.uid}`)).json().code).toBe('TRANSFER_TO_SELF');
    expect((await post(b, '/wallet/recipient?uid=99999999')).json().code).toBe('TRANSFER_RECIPIENT_MISSING');
  });

  // Found by the hostile-input fuzz: the ledger looks the legs up in account order, so a recipient
  // who never had money (no accounts yet) and sorts first had their accounts opened by a refusal.
  it('a refused transfer to someone who never had money opens no account for them', async () => {
    const b = await newUser();
    const a = await newUser();
    await bookDeposit(t.prisma, a.user, '5');
    expect(
      await refused(() => post(a, `/wallet/inner_transaction?summ=6&to_user=${b.user.uid}`)),
    ).toMatchObject({ status: 422, body: { code: 'INSUFFICIENT_FUNDS' } });
    expect(await t.prisma.ledgerAccount.count({ where: { userId: b.user.id } })).toBe(0);
  });

  it('sends once for a retried request with the same Idempotency-Key', async () => {
    const a = await newUser();
    const b = await newUser();
    await bookDeposit(t.prisma, a.user, '30');
    const key = { 'idempotency-key': 'transfer-key-0001' };
    const url = `/wallet/inner_transaction?summ=10&to_user=${b.user.uid}`;
    const answers = await Promise.all([post(a, url, key), post(a, url, key), post(a, url, key)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((r) => r.json().transaction.id)).size).toBe(1);
    expect(await balanceOf(t.prisma, b.user, 'main')).toBe(10_000_000n);
    const conflict = await refused(() =>
      post(a, `/wallet/inner_transaction?summ=11&to_user=${b.user.uid}`, key),
    );
    expect(conflict).toMatchObject({ status: 409, body: { code: 'REQUEST_CONFLICT' } });
    // Without a key, the same request twice is two transfers.
    await post(a, url);
    await post(a, url);
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(0n);
  });
});

describe('the OpenAPI page', () => {
  it('documents the Idempotency-Key header of the money moves', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const path of ['/wallet/withdraw_money', '/wallet/inner_transaction', '/wallet/add_money']) {
      const names = spec.paths[path].post.parameters.map(
        (p: { in: string; name: string }) => `${p.in}:${p.name}`,
      );
      expect(names, path).toContain('header:idempotency-key');
    }
  });
});

describe('add_money', () => {
  it('moves main to fee, refuses less than 1 USDT or more than main, and re-plans bots dried by an empty fee balance', async () => {
    const a = await newUser();
    await bookDeposit(t.prisma, a.user, '20');
    const reconciled: number[] = [];
    const { reconcileCoinBotJob } = await import('@gridbot/jobs');
    t.ctx.queue.process(reconcileCoinBotJob, async (payload) => {
      reconciled.push(payload.coinBotId);
    });
    const account = await t.prisma.exchangeAccount.create({
      data: {
        userId: a.user.id,
        exchange: 'binance',
        mode: 'sandbox',
        apiKey: 'K'.repeat(64),
        secretCipher: Buffer.from([0]),
        secretIv: Buffer.from([0]),
        keyId: 'test',
      },
    });
    const bot = (coin: string, running: boolean) =>
      t.prisma.coinBot.create({
        data: {
          userId: a.user.id,
          exchangeAccountId: account.id,
          coin,
          symbol: `${coin}/USDT`,
          orderSize: '10',
          stepPct: '1',
          stepIncreasePct: '0',
          maxTrades: 3,
          running,
        },
      });
    const running = await bot('XRP', true);
    await bot('ADA', false);
    expect(await refused(() => post(a, '/wallet/add_money?summ=0.5'))).toMatchObject({ status: 400 });
    expect(await refused(() => post(a, '/wallet/add_money?summ=20.01'))).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS' },
    });
    const topped = await post(a, '/wallet/add_money?summ=5');
    expect(topped.statusCode).toBe(200);
    expect(topped.json()).toMatchObject({
      balances: { main: '15', fee: '5', held: '0' },
      transaction: { type: 'deposit_balance', balance: 'fee', amount: '5', status: 'confirmed' },
    });
    await t.ctx.queue.drain();
    expect(reconciled).toEqual([running.id]);
    // Already above zero: nothing to lift, nothing re-planned.
    await post(a, '/wallet/add_money?summ=1');
    await t.ctx.queue.drain();
    expect(reconciled).toEqual([running.id]);
    await expectBooksIntact(t.prisma);
  });
});
