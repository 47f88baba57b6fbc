import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

type Json = Record<string, unknown>;

/**
 * The sandbox exchange as an outside process (apps/sandbox, as `npm start` runs it), driven through
 * its HTTP control API: this package only ever sees an exchange over the network.
 */
export type SandboxProcess = {
  url: string;
  /** The Bybit v5 and OKX v5 dialects of the same exchange (each on its own port). */
  bybitUrl: string;
  okxUrl: string;
  /** A new account and its key; `passphrase` is the key's third credential on OKX. */
  createAccount(body?: Json): Promise<{ apiKey: string; secret: string; passphrase: string }>;
  setPrice(symbol: string, price: string): Promise<void>;
  /** How much the market trades per level and step; `'infinite'`: every crossed order fills whole. */
  setLiquidity(symbol: string, liquidity: 'infinite' | { quotePerLevel: string }): Promise<void>;
  setPermissions(apiKey: string, permissions: { spot?: boolean; withdrawals?: boolean }): Promise<void>;
  /** The key's trusted IPs and the end of its spot trading (ms, null: none). */
  setKeyAccess(
    apiKey: string,
    access: { ipWhitelist?: string[]; tradingExpiresAt?: number | null },
  ): Promise<void>;
  failNextOrder(fault: { kind: 'drop' | 'delay' | 'unknown'; delayMs?: number }): Promise<void>;
  orders(
    apiKey: string,
    symbol?: string,
  ): Promise<Array<{ clientOrderId: string; status: string; orderId: number }>>;
  balances(apiKey: string): Promise<Record<string, { free: string; locked: string }>>;
  /** The WebSocket API's connections (apps/sandbox user-data-control-routes.ts). */
  userData: {
    connections(): Promise<{
      connections: Array<{ id: number; subscriptions: number[]; started: number }>;
      accepted: number;
      refused: number;
    }>;
    setLimits(limits: Record<string, number>): Promise<void>;
    serverShutdown(closeAfterMs: number): Promise<number>;
    drop(): Promise<number>;
  };
  /** Any other control API call (apps/sandbox/README.md#control-api), e.g. PUT /markets/BTCUSDT/status. */
  control<T = unknown>(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: Json): Promise<T>;
  stop(): Promise<void>;
};

const waitForUrls = (child: ChildProcess): Promise<{ url: string; bybitUrl: string; okxUrl: string }> =>
  new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const binance = /sandbox exchange on (http:\/\/\S+)/.exec(output);
      const bybit = /sandbox Bybit v5 on (http:\/\/\S+)/.exec(output);
      const okx = /sandbox OKX v5 on (http:\/\/\S+)/.exec(output);
      if (binance && bybit && okx) resolve({ url: binance[1]!, bybitUrl: bybit[1]!, okxUrl: okx[1]! });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
  });

/** `port`: listen on this port (a restarted sandbox at the same address); default a free one. */
export const startSandboxProcess = async (options: { port?: number } = {}): Promise<SandboxProcess> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/sandbox/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SANDBOX_PORT: String(options.port ?? 0),
      // Its TRON node and Telegram stand-in on free ports too: with SANDBOX_PORT set they would
      // want 3101 and 3102, which another program may hold (a restart at the old port failed so).
      SANDBOX_TRON_PORT: '0',
      SANDBOX_TELEGRAM_PORT: '0',
      HEALTH_PORT: 'off',
      SANDBOX_MARKETS: 'random',
      SANDBOX_TICK_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, bybitUrl, okxUrl } = await waitForUrls(child);
  const call = async <T>(method: string, path: string, body?: Json): Promise<T> => {
    const response = await fetch(`${url}/_sandbox${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    url,
    bybitUrl,
    okxUrl,
    createAccount: (body = {}) => call('POST', '/accounts', body),
    setPrice: async (symbol, price) => {
      await call('PUT', `/markets/${symbol}/price`, { price });
    },
    setLiquidity: async (symbol, liquidity) => {
      await call('PUT', `/markets/${symbol}/liquidity`, { liquidity });
    },
    setPermissions: async (apiKey, permissions) => {
      await call('PUT', `/accounts/${apiKey}/permissions`, permissions);
    },
    setKeyAccess: async (apiKey, access) => {
      await call('PUT', `/accounts/${apiKey}/access`, access);
    },
    failNextOrder: async (fault) => {
      await call('POST', '/faults/next-order', fault);
    },
    orders: (apiKey, symbol) => call('GET', `/accounts/${apiKey}/orders${symbol ? `?symbol=${symbol}` : ''}`),
    balances: async (apiKey) => {
      const account = (await call('GET', `/accounts/${apiKey}`)) as {
        balances: Array<{ asset: string; free: string; locked: string }>;
      };
      return Object.fromEntries(account.balances.map((b) => [b.asset, { free: b.free, locked: b.locked }]));
    },
    userData: {
      connections: () => call('GET', '/user-data/connections'),
      setLimits: async (limits) => {
        await call('PUT', '/user-data/limits', limits);
      },
      serverShutdown: async (closeAfterMs) =>
        (await call<{ connections: number }>('POST', '/user-data/server-shutdown', { closeAfterMs }))
          .connections,
      drop: async () => (await call<{ connections: number }>('POST', '/user-data/drop', {})).connections,
    },
    control: (method, path, body) => call(method, path, body),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
};
