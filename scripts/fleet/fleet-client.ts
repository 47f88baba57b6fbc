import { randomBytes } from 'node:crypto';
import { signLaunchData } from '@gridbot/services';
import type { Fleet } from './start-fleet';

/**
 * What users and the outside world do to a fleet, over HTTP only (the proxy, the sandbox's
 * control APIs), for fault tests, demos and benchmarks: sign up through the first invite code,
 * call the API with a session, pay USDT in on the sandbox chain, open an exchange account.
 */
export type FleetUser = {
  token: string;
  uid: number;
  username: string;
  /** The user's sandbox exchange keys (after `connectExchange`). */
  apiKey?: string;
};

export type ApiAnswer<T = Record<string, unknown>> = { status: number; body: T };

export const callApi = async <T = Record<string, unknown>>(
  fleet: Pick<Fleet, 'url'>,
  user: Pick<FleetUser, 'token'> | null,
  method: 'GET' | 'POST',
  path: string,
  input: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> => {
  const url = new URL(path, fleet.url);
  for (const [name, value] of Object.entries(input.query ?? {})) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method,
    headers: {
      ...(user ? { authorization: `Bearer ${user.token}` } : {}),
      ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...input.headers,
    },
    ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
};

/** The answer's body, or an error naming the call and what it answered. */
export const expectOk = <T>(answer: ApiAnswer<T>, what: string): T => {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};

/** A new user signed up through the installation's first invite code, as the mini app does it. */
export const signUp = async (fleet: Fleet, name?: string): Promise<FleetUser> => {
  const username = name ?? `fleet_${randomBytes(5).toString('hex')}`;
  const telegramId = BigInt(`0x${randomBytes(5).toString('hex')}`) + 1_000_000n;
  const initData = signLaunchData({
    botToken: fleet.secrets.botToken,
    user: { telegramId, username, firstName: 'Fleet', lastName: null },
    startParam: `ref_${fleet.secrets.rootReferralCode}`,
  });
  const session = expectOk(
    await callApi<{ token: string; user: { uid: number } }>(fleet, null, 'POST', '/auth/login', {
      body: { _auth: initData },
    }),
    'sign-up',
  );
  return { token: session.token, uid: session.user.uid, username };
};

const sandboxPost = async (url: string, body: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
};

/** USDT sent on the sandbox chain to the user's deposit address (made on first use). */
export const payIn = async (fleet: Fleet, user: FleetUser, amount: string): Promise<{ address: string }> => {
  const wallet = expectOk(
    await callApi<{ depositAddress: string }>(fleet, user, 'POST', '/wallet/create_wallet'),
    'create_wallet',
  );
  await sandboxPost(`${fleet.sandbox.tronUrl}/_sandbox/tron/send`, { to: wallet.depositAddress, amount });
  return { address: wallet.depositAddress };
};

/** A sandbox exchange account with USDT, its keys saved through the API. */
export const connectExchange = async (fleet: Fleet, user: FleetUser, usdt = '10000'): Promise<string> => {
  const account = (await sandboxPost(`${fleet.sandbox.exchangeUrl}/_sandbox/accounts`, {
    balances: { USDT: usdt },
  })) as { apiKey: string; secret: string };
  expectOk(
    await callApi(fleet, user, 'POST', '/profile/api_key', {
      body: { exchange: 'binance', apiKey: account.apiKey, secretKey: account.secret },
    }),
    'api_key',
  );
  user.apiKey = account.apiKey;
  return account.apiKey;
};

/**
 * Polls `read` until `done` holds (every `everyMs`), or fails after `timeoutMs` naming `what` and
 * the last value. A read that throws counts as not yet (a database busy under a fault scenario).
 */
export const waitUntil = async <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 60_000, everyMs = 250 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() > deadline) {
      const seen =
        last && 'value' in last
          ? JSON.stringify(last.value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v))
          : String(last?.error);
      throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};

/** The sandbox exchange's price of `symbol` (XRPUSDT), as a decimal string. */
export const marketPrice = async (fleet: Fleet, symbol: string): Promise<string> => {
  const response = await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/markets`);
  const markets = (await response.json()) as Array<{ symbol: string; price: string }>;
  const market = markets.find((m) => m.symbol === symbol);
  if (!market) throw new Error(`the sandbox lists no ${symbol}`);
  return market.price;
};

/** Moves the sandbox exchange's price (its matching engine fills what the move crosses). */
export const setMarketPrice = async (fleet: Fleet, symbol: string, price: string): Promise<void> => {
  const response = await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/markets/${symbol}/price`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ price }),
  });
  if (!response.ok) throw new Error(`price ${symbol}: ${response.status} ${await response.text()}`);
};

/** The sandbox's orders of the user's exchange account (Binance's order JSON). */
export const exchangeOrders = async (
  fleet: Fleet,
  user: FleetUser,
): Promise<Array<{ clientOrderId: string; status: string; side: string }>> => {
  const response = await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/accounts/${user.apiKey}/orders`);
  return (await response.json()) as Array<{ clientOrderId: string; status: string; side: string }>;
};

/**
 * A sandbox exchange account for the user and `coin` in the portfolio with a small ladder (10 USDT
 * a buy, step 1 %, 5 lots: within FREE's balance limit), not started.
 */
export const addSmallLadder = async (fleet: Fleet, user: FleetUser, coin: string): Promise<void> => {
  await connectExchange(fleet, user);
  expectOk(
    await callApi(fleet, user, 'POST', '/portfolio/add_coin/add', { query: { data_send: coin } }),
    'add coin',
  );
  expectOk(
    await callApi(fleet, user, 'POST', '/portfolio/setting/edit', {
      body: { coin, orderSize: '10', stepPct: '1', stepIncreasePct: '0', maxTrades: 5, dry: false },
    }),
    'settings',
  );
};

/**
 * A user who trades `coin`: `deposit` USDT paid in on chain and credited, 10 of it moved to the fee
 * balance, a sandbox exchange account, the coin added with a small ladder (10 USDT a buy, step 1 %,
 * 5 lots: within FREE's balance limit) and started; resolves once the ladder rests on the exchange.
 */
export const startTradingUser = async (fleet: Fleet, coin = 'XRP', deposit = '50'): Promise<FleetUser> => {
  const user = await signUp(fleet);
  await payIn(fleet, user, deposit);
  await waitUntil(
    'deposit credited',
    async () => (await callApi<{ balances?: { main: string } }>(fleet, user, 'POST', '/wallet')).body,
    (wallet) => wallet.balances?.main === deposit,
    { everyMs: 2100, timeoutMs: 120_000 },
  );
  expectOk(await callApi(fleet, user, 'POST', '/wallet/add_money', { query: { summ: '10' } }), 'add_money');
  await addSmallLadder(fleet, user, coin);
  expectOk(await callApi(fleet, user, 'POST', '/home/start', { query: { coin_name: coin } }), 'start');
  await waitUntil(
    'ladder resting on the exchange',
    () => exchangeOrders(fleet, user),
    (orders) => orders.filter((o) => o.status === 'NEW').length >= 2,
    { timeoutMs: 120_000 },
  );
  return user;
};
