import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readSandboxState,
  type SandboxExchangeHandle,
  type SandboxMarketConfig,
  SandboxStateError,
  startSandboxExchange,
} from '../src/index';
import { type Credentials, limitOrder, signed } from './support/binance-http';
import { ethUsdt, FIXED_BTC_USDT, REPLAYED_ETH_USDT } from './support/markets';

const MARKETS: SandboxMarketConfig[] = [
  FIXED_BTC_USDT,
  ethUsdt({ kind: 'random-walk', start: '3000', seed: 7 }),
];

let dir: string;
let file: string;
const open: SandboxExchangeHandle[] = [];

const start = async (stateFile?: string) => {
  const sandbox = await startSandboxExchange({ port: 0, markets: MARKETS, tickMs: 0, stateFile });
  open.push(sandbox);
  return sandbox;
};
const stop = async (sandbox: SandboxExchangeHandle) => {
  open.splice(open.indexOf(sandbox), 1);
  await sandbox.close();
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  file = join(dir, 'sandbox-exchange.json');
});
afterEach(async () => {
  for (const sandbox of open.splice(0)) await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const order = (sandbox: SandboxExchangeHandle, trader: Credentials, params: Record<string, string>) =>
  signed(sandbox.url, 'POST', '/api/v3/order', trader, params);

describe('the state file', () => {
  it('brings back accounts, resting orders, trades, ids and price positions after a restart', async () => {
    const first = await start(file);
    const trader = first.control.createAccount({ balances: { USDT: '1000' } });
    const resting = await order(first, trader, limitOrder('BTCUSDT', 'BUY', '0.001', '59000', 'rest-1'));
    expect(resting.body.status).toBe('NEW');
    const market = await order(first, trader, {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '30',
    });
    expect(market.body.status).toBe('FILLED');
    first.control.advance(5, 'ETHUSDT');
    const before = {
      account: first.control.account(trader.apiKey),
      orders: first.control.orders(trader.apiKey),
      trades: first.control.trades(trader.apiKey),
      eth: first.control.price('ETHUSDT'),
    };
    await stop(first);

    const second = await start(file);
    expect(second.control.account(trader.apiKey)).toEqual(before.account);
    expect(second.control.orders(trader.apiKey)).toEqual(before.orders);
    expect(second.control.price('ETHUSDT')).toBe(before.eth);
    const listed = await signed(second.url, 'GET', '/api/v3/myTrades', trader, { symbol: 'ETHUSDT' });
    expect(listed.body).toHaveLength(1);
    expect(String(listed.body[0].id)).toBe(String(before.trades[0]?.id));

    // The price continues its path: the same as a sandbox that never stopped.
    const reference = await start();
    reference.control.advance(6, 'ETHUSDT');
    second.control.advance(1, 'ETHUSDT');
    expect(second.control.price('ETHUSDT')).toBe(reference.control.price('ETHUSDT'));

    // The resting order still matches, and new ids follow the old ones.
    const fills = second.control.setPrice('BTCUSDT', '58990');
    expect(fills).toHaveLength(1);
    expect(fills[0]?.orderId).toBe(resting.body.orderId);
    const usdt = second.control.account(trader.apiKey).balances.find((b) => b.asset === 'USDT');
    expect(usdt?.locked).toBe('0.00000000');
    const next = await order(second, trader, limitOrder('BTCUSDT', 'BUY', '0.001', '50000', 'rest-2'));
    const knownOrderIds = before.orders.map((o) => Number(o.orderId));
    expect(next.body.orderId).toBeGreaterThan(Math.max(...knownOrderIds));
    expect(Number(fills[0]?.id)).toBeGreaterThan(Number(before.trades[0]?.id));
    const newAccount = second.control.createAccount();
    expect(newAccount.accountId).toBeGreaterThan(before.account.accountId);
  });

  it("keeps a replayed market's past where it was: a restart does not move it", async () => {
    const replayed = [REPLAYED_ETH_USDT];
    const first = await startSandboxExchange({ port: 0, markets: replayed, tickMs: 0, stateFile: file });
    open.push(first);
    const since = Date.now() - 3 * 86_400_000;
    const before = first.control.pastCandles('ETHUSDT', since);
    expect(before.length).toBeGreaterThan(3 * 1400);
    await stop(first);
    // Later, as after a real restart: the past still ends where the first start put it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * 60_000);
    try {
      const second = await startSandboxExchange({ port: 0, markets: replayed, tickMs: 0, stateFile: file });
      open.push(second);
      expect(second.control.pastCandles('ETHUSDT', since)).toEqual(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps money as decimal strings in the file', async () => {
    const first = await start(file);
    first.control.createAccount({ balances: { USDT: '0.00000001' } });
    await stop(first);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"free":"0.00000001"');
    expect(readSandboxState(file)?.accounts.accounts[0]?.holdings.USDT?.free).toBe('0.00000001');
  });

  it('refuses a damaged file, another version or a foreign file, naming the file', async () => {
    for (const text of [
      '{"format":"gridbot-sandbox-exchange","version":1,"sav',
      JSON.stringify({ format: 'gridbot-sandbox-exchange', version: 2, savedAt: 'x', state: {} }),
      JSON.stringify({ hello: 'world' }),
      JSON.stringify({
        format: 'gridbot-sandbox-exchange',
        version: 1,
        savedAt: 'x',
        state: { accounts: { nextId: 1, accounts: [], keys: [] }, engine: {}, markets: [] },
      }),
    ]) {
      writeFileSync(file, text);
      const refused = await start(file).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SandboxStateError);
      expect((refused as Error).message).toContain(file);
    }
  });

  it('refuses a state holding a market this sandbox is not configured with', async () => {
    const first = await startSandboxExchange({
      port: 0,
      markets: [...MARKETS, { ...MARKETS[0]!, base: 'XRP', feed: { kind: 'fixed', price: '1' } }],
      stateFile: file,
    });
    first.control.createAccount();
    await first.close();
    await expect(start(file)).rejects.toThrow(/XRPUSDT/);
  });
});

const writer = fileURLToPath(new URL('./support/write-state-forever.ts', import.meta.url));

describe('a crash between writes', () => {
  it('leaves the last complete write (or the one being renamed), never a damaged file', async () => {
    for (const killAfter of [3, 11, 29]) {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, file], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let last = 0;
      // Every line printed before the kill is read to the end of the output.
      await new Promise<void>((resolve) => {
        createInterface({ input: child.stdout })
          .on('line', (line) => {
            last = Number(line);
            if (last === killAfter) child.kill('SIGKILL');
          })
          .on('close', resolve);
      });
      const state = readSandboxState(file);
      const price = Number(state?.markets[0]?.price) / 100;
      // Written and announced, or written and killed before it could say so.
      expect([last, last + 1]).toContain(price);
      expect(state?.engine.orders).toHaveLength(3000);
      const restored = await start(file);
      expect(restored.control.markets()[0]?.price).toBe(`${price * 100}.00000000`);
      await stop(restored);
    }
  });
});
