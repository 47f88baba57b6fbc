import { Writable } from 'node:stream';
import type { Deal, Transaction } from '@gridbot/contracts';
import type { CoinBot, User } from '@gridbot/db';
import { SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import { createLogger } from '@gridbot/runtime';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { EXPORT_LINK_TTL_S, seedDemoTrading } from '@gridbot/services';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from './support/parse-csv';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * CSV exports (docs/product.md#exports) of a trader with a day of booked history (the demo's
 * history seed over a zigzag market): each file holds exactly the figures the screens' calls
 * answer, in the CSV rules' form; the signed links (docs/security.md#download-links) serve a file
 * without the Authorization header, to nobody else, for a few minutes.
 */

const COINS = ['ETH', 'XRP', 'ADA'];
/** What text a note of a wallet line may carry: a formula, commas, quotes, Cyrillic and Chinese. */
const HOSTILE_NOTE = '=HYPERLINK("http://evil.example","Сделка, 买入")';

/** Every JSON line the app logs, through the product's logger (its scrubbing included). */
const logText: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logText.push(String(chunk));
    done();
  },
});

/** The services' clock, moved forward to let a link expire. */
let clockOffsetMs = 0;
const clock = { now: () => new Date(Date.now() + clockOffsetMs) };

let sandbox: SandboxExchangeHandle;
let t: TestApp;
let trader: User;
let bots: CoinBot[];

/** Half a day of minutes zigzagging ±3 % around 100: a grid buys and sells many times. */
const zigzag = (since: number) =>
  Array.from({ length: 720 }, (_, i) => {
    const at = (k: number) => (100 + 3 * Math.sin(k / 60)).toFixed(2);
    const [low, high] = [at(i), at(i + 1)].sort((a, b) => Number(a) - Number(b));
    return {
      time: since - (since % 60_000) + i * 60_000,
      open: at(i),
      high: high!,
      low: low!,
      close: at(i + 1),
    };
  });

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: COINS.map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.01',
      stepSize: '0.0001',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '100' },
    })),
  });
  t = await createTestApp(
    {},
    {
      sandboxUrl: sandbox.url,
      clock,
      logger: createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'api-test', logStream),
    },
  );
  trader = await t.createUser({ username: 'export_trader', feeBalance: '500' });
  const trading = await seedDemoTrading(t.ctx, {
    user: trader,
    listedCoins: COINS,
    sandbox: {
      hasApiKey: (apiKey) => sandbox.control.hasApiKey(apiKey),
      createAccount: (usdt) => sandbox.control.createAccount({ balances: { USDT: usdt } }),
      history: {
        pastCandles: (_symbol, since) => zigzag(since),
        market: () => ({ tickSize: '0.01', stepSize: '0.0001' }),
        feePct: '0.1',
        setBalances: (apiKey, balances) => void sandbox.control.setBalances(apiKey, balances),
      },
    },
  });
  bots = trading.bots;
  // A wallet line whose text a spreadsheet would run as a formula, with a comma and quotes.
  await transfer(t.prisma, {
    idempotencyKey: `export-hostile-note-${trader.id}`,
    type: 'trade_fee',
    memo: { coin: HOSTILE_NOTE },
    legs: [
      { account: userAccountCode(trader.id, 'fee'), amount: -toMicro('0.25') },
      { account: SYSTEM_ACCOUNTS.fees, amount: toMicro('0.25') },
    ],
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

/** Sends a request; a 429 (the per-user limits of 1–3 s) is waited out by asking again. */
const send = async (options: InjectOptions) => {
  for (;;) {
    const answer = await t.app.inject(options);
    if (answer.statusCode !== 429) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

let nextAddress = 0;
/** A download through a link, from an address of its own (links are limited per address). */
const download = (path: string) => {
  nextAddress += 1;
  return t.app.inject({ method: 'GET', url: path, remoteAddress: `10.9.0.${nextAddress}` });
};

const asTrader = async (method: 'GET' | 'POST', url: string) =>
  send({ method, url, headers: await t.authHeader(trader) });

/** The deals list's answers for one coin bot, every page (open deals first, then closed ones). */
const shownDeals = new Map<number, Deal[]>();
const screenDeals = async (bot: CoinBot): Promise<Deal[]> => {
  const known = shownDeals.get(bot.id);
  if (known) return known;
  const deals: Deal[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await asTrader(
      'POST',
      `/portfolio/trades?coin_user_id=${bot.id}&status=all&page=${page}&limit=300`,
    );
    expect(answer.statusCode).toBe(200);
    const body = answer.json() as { data: Deal[]; hasMore: boolean };
    deals.push(...body.data);
    if (!body.hasMore) break;
  }
  shownDeals.set(bot.id, deals);
  return deals;
};

/** A deal as its CSV record must read (docs/product.md#exports, the deals file). */
const dealRecord = (bot: CoinBot, deal: Deal) => ({
  lot_number: String(deal.lotNumber),
  coin: bot.coin,
  symbol: bot.symbol,
  exchange: 'binance',
  status: deal.status,
  opened_at: deal.buy.at,
  closed_at: deal.sell?.at ?? '',
  buy_price: deal.buy.price,
  quantity: deal.quantity,
  buy_amount: deal.buy.quoteAmount,
  buy_fee: deal.buy.fee,
  cost: deal.cost,
  sell_price: deal.sell?.price ?? '',
  sell_quantity: deal.sell?.quantity ?? '',
  proceeds: deal.sell?.quoteAmount ?? '',
  sell_fee: deal.sell?.fee ?? '',
  fee_asset: 'USDT',
  take_profit_price: deal.takeProfitPrice ?? '',
  platform_fee: deal.tradeFee ?? '',
  realized_pnl: deal.status === 'closed' ? deal.pnl : '',
  unrealized_pnl: deal.status === 'open' ? deal.pnl : '',
  pnl_pct: deal.pnlPct,
  buy_order_id: deal.buy.orderId,
  sell_order_id: deal.sell?.orderId ?? '',
});

const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const today = () => clock.now().toISOString().slice(0, 10);

describe('the deals file', () => {
  it("holds one coin's deals, then all coins', with the deals list's figures", async () => {
    const eth = bots.find((bot) => bot.coin === 'ETH')!;
    const one = await asTrader('GET', `/export/deals.csv?coin_user_id=${eth.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(one.headers['content-disposition']).toContain(`filename="gridbot-deals-ETH-${today()}.csv"`);
    expect(one.headers['cache-control']).toBe('no-store');
    const file = parseCsv(one.body);
    expect(file.header).toEqual([
      'lot_number',
      'coin',
      'symbol',
      'exchange',
      'status',
      'opened_at',
      'closed_at',
      'buy_price',
      'quantity',
      'buy_amount',
      'buy_fee',
      'cost',
      'sell_price',
      'sell_quantity',
      'proceeds',
      'sell_fee',
      'fee_asset',
      'take_profit_price',
      'platform_fee',
      'realized_pnl',
      'unrealized_pnl',
      'pnl_pct',
      'buy_order_id',
      'sell_order_id',
    ]);
    const ethDeals = await screenDeals(eth);
    expect(ethDeals.filter((deal) => deal.status === 'closed').length).toBeGreaterThan(5);
    expect(ethDeals.some((deal) => deal.status === 'open')).toBe(true);
    expect(file.rows).toEqual(ethDeals.map((deal) => dealRecord(eth, deal)));
    for (const row of file.rows) {
      expect(row.opened_at).toMatch(UTC_INSTANT);
      if (row.status === 'closed') expect(row.closed_at).toMatch(UTC_INSTANT);
    }

    const all = await asTrader('GET', '/export/deals.csv');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-disposition']).toContain(`filename="gridbot-deals-all-${today()}.csv"`);
    const expected = [];
    for (const bot of [...bots].sort((a, b) => a.coin.localeCompare(b.coin))) {
      expected.push(...(await screenDeals(bot)).map((deal) => dealRecord(bot, deal)));
    }
    expect(parseCsv(all.body).rows).toEqual(expected);
  }, 60_000);

  it("refuses another user's coin bot, a bad id and a call without a token", async () => {
    const other = await t.createUser({ username: 'export_other' });
    const foreign = await send({
      method: 'GET',
      url: `/export/deals.csv?coin_user_id=${bots[0]!.id}`,
      headers: await t.authHeader(other),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'COIN_NOT_FOUND' });
    const bad = await send({
      method: 'GET',
      url: '/export/deals.csv?coin_user_id=abc',
      headers: await t.authHeader(await t.createUser({ username: 'export_typo' })),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
    const anonymous = await t.app.inject({ method: 'GET', url: '/export/deals.csv' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the PnL file', () => {
  it('holds every UTC day of the PnL statistics, and each day per coin', async () => {
    const daily = await asTrader('GET', '/home/pnl/daily?limit=100');
    const days = (daily.json() as { items: Array<Record<string, unknown>>; total: number }).items;
    expect(days.length).toBeGreaterThan(0);
    const file = await asTrader('GET', '/export/pnl_daily.csv');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(`filename="gridbot-pnl-daily-${today()}.csv"`);
    const parsed = parseCsv(file.body);
    expect(parsed.header).toEqual([
      'date',
      'realized_pnl',
      'platform_fee',
      'closed_trades',
      'profitable_trades',
    ]);
    expect(parsed.rows).toEqual(
      days.map((day) => ({
        date: day.date,
        realized_pnl: day.realizedPnl,
        platform_fee: day.tradeFee,
        closed_trades: String(day.closedTrades),
        profitable_trades: String(day.profitableTrades),
      })),
    );

    const byCoin = parseCsv((await asTrader('GET', '/export/pnl_daily.csv?by=coin')).body);
    const expected = [];
    for (const day of days) {
      const split = (await asTrader('GET', `/home/pnl_daily_coins?target_date=${day.date}`)).json() as {
        date: string;
        coins: Array<Record<string, unknown>>;
      };
      for (const coin of split.coins) {
        expected.push({
          date: split.date,
          coin: coin.coin,
          realized_pnl: coin.realizedPnl,
          platform_fee: coin.tradeFee,
          closed_trades: String(coin.closedTrades),
          profitable_trades: String(coin.profitableTrades),
          lots_opened: String(coin.buys),
        });
      }
    }
    expect(byCoin.rows).toEqual(expected);
    expect(new Set(byCoin.rows.map((row) => row.coin))).toEqual(new Set(COINS));

    const bad = await asTrader('GET', '/export/pnl_daily.csv?by=week');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
  }, 60_000);
});

describe('the wallet file', () => {
  it("holds the wallet screen's lines, all time; text is neutralized, numbers stay numbers", async () => {
    const lines: Transaction[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await asTrader('POST', `/wallet?days=366&limit=100&page=${page}`);
      expect(answer.statusCode).toBe(200);
      const body = answer.json() as { transactions: { items: Transaction[]; hasMore: boolean } };
      lines.push(...body.transactions.items);
      if (!body.transactions.hasMore) break;
    }
    expect(lines.filter((line) => line.type === 'trade_fee').length).toBeGreaterThan(5);
    const file = await asTrader('GET', '/export/wallet.csv');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(`filename="gridbot-wallet-${today()}.csv"`);
    const parsed = parseCsv(file.body);
    const neutralized = (text: string | null) => (text && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    expect(parsed.rows).toEqual(
      lines.map((line) => ({
        created_at: line.createdAt,
        type: line.type,
        status: line.status,
        balance: line.balance,
        amount: line.amount,
        asset: 'USDT',
        network_fee: line.networkFee ?? '',
        txid: line.txid ?? '',
        address: line.address ?? '',
        counterparty_uid: line.counterparty ? String(line.counterparty.uid) : '',
        counterparty_username: line.counterparty?.username ?? '',
        note: neutralized(line.note) ?? '',
        reason: line.reason ?? '',
        updated_at: line.updatedAt,
        id: line.id,
      })),
    );
    for (const row of parsed.rows) expect(row.created_at).toMatch(UTC_INSTANT);

    // As written: UTF-8 after a BOM, the formula quoted behind an apostrophe with its quotes doubled,
    // a debit as a bare negative number.
    const raw = file.body;
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    expect(raw).toContain('"\'=HYPERLINK(""http://evil.example"",""Сделка, 买入"")"');
    expect(raw).toContain(',"trade_fee","confirmed","fee",-0.25,"USDT",');
    expect(raw.split('\r\n').at(-1)).toBe('');
  }, 60_000);
});

describe('download links', () => {
  const link = async (user: User, query: string) => {
    const answer = await send({
      method: 'POST',
      url: `/export/link?${query}`,
      headers: await t.authHeader(user),
    });
    return answer;
  };

  it('serve the file without the Authorization header, the same as the call with it', async () => {
    const eth = bots.find((bot) => bot.coin === 'ETH')!;
    const created = await link(trader, `file=deals&coin_user_id=${eth.id}`);
    expect(created.statusCode).toBe(200);
    const { path, fileName, expiresAt } = created.json() as {
      path: string;
      fileName: string;
      expiresAt: string;
    };
    expect(fileName).toBe(`gridbot-deals-ETH-${today()}.csv`);
    expect(new Date(expiresAt).getTime() - clock.now().getTime()).toBeLessThanOrEqual(
      EXPORT_LINK_TTL_S * 1000,
    );
    expect(path).toMatch(/^\/export\/download\.csv\?token=/);
    expect(path).not.toContain((await t.authHeader(trader)).authorization.slice('Bearer '.length));

    const viaLink = await download(path);
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.headers['content-disposition']).toContain(`filename="${fileName}"`);
    const withToken = await asTrader('GET', `/export/deals.csv?coin_user_id=${eth.id}`);
    expect(viaLink.body).toBe(withToken.body);

    // docs/security.md#download-links: no log line shows the token.
    const token = decodeURIComponent(path.split('token=')[1]!);
    const logged = logText.join('');
    expect(logged).toContain('/export/download.csv?token=[redacted]');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(token.split('.')[2]!);
  }, 30_000);

  it('name their file: a wallet link of one type, a PnL link per coin', async () => {
    const wallet = await link(trader, 'file=wallet&type=trade_fee');
    const walletFile = await download((wallet.json() as { path: string }).path);
    expect(walletFile.headers['content-disposition']).toContain(`gridbot-wallet-trade_fee-${today()}.csv`);
    const types = new Set(parseCsv(walletFile.body).rows.map((row) => row.type));
    expect([...types]).toEqual(['trade_fee']);
    const pnl = await link(trader, 'file=pnl_daily&by=coin');
    const pnlFile = await download((pnl.json() as { path: string }).path);
    expect(parseCsv(pnlFile.body).header).toContain('lots_opened');
  }, 30_000);

  it('expire after a few minutes', async () => {
    const created = await link(trader, 'file=pnl_daily');
    const { path } = created.json() as { path: string };
    clockOffsetMs = (EXPORT_LINK_TTL_S + 1) * 1000;
    try {
      const late = await download(path);
      expect(late.statusCode).toBe(401);
      expect(late.json()).toMatchObject({ error: true, code: 'EXPORT_LINK_INVALID' });
    } finally {
      clockOffsetMs = 0;
    }
    expect((await download(path)).statusCode).toBe(200);
  });

  it('are bound to their user and file: tampered, foreign or session tokens are refused', async () => {
    const other = await t.createUser({ username: 'export_stranger' });
    const created = await link(trader, 'file=wallet');
    const token = decodeURIComponent((created.json() as { path: string }).path.split('token=')[1]!);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = (changes: Record<string, unknown>) =>
      `${head}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
    const refused = async (value: string) => {
      const answer = await download(`/export/download.csv?token=${encodeURIComponent(value)}`);
      expect(answer.statusCode, value.slice(0, 40)).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'EXPORT_LINK_INVALID' });
    };
    // Another user's file, a longer life, another file: the signature no longer holds.
    await refused(forged({ sub: String(other.id), uid: other.uid }));
    await refused(forged({ exp: (claims.exp as number) + 3600 }));
    await refused(forged({ export: { file: 'deals' } }));
    await refused(`${head}.${payload}.${signature.slice(0, -2)}AA`);
    await refused('not-a-token');
    // A session token is not a link, and a link is not a session.
    await refused((await t.authHeader(trader)).authorization.slice('Bearer '.length));
    const asSession = await t.app.inject({
      method: 'GET',
      url: '/export/wallet.csv',
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: '10.9.1.1',
    });
    expect(asSession.statusCode).toBe(401);

    // Another user cannot make a link to the trader's coin; their own link serves their own file.
    const foreign = await link(other, `file=deals&coin_user_id=${bots[0]!.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'COIN_NOT_FOUND' });
    const own = await link(other, 'file=deals');
    const ownFile = await download((own.json() as { path: string }).path);
    expect(ownFile.statusCode).toBe(200);
    expect(parseCsv(ownFile.body).rows).toEqual([]);
  }, 30_000);

  it("stop working once the account's sessions are ended", async () => {
    const user = await t.createUser({ username: 'export_leaver' });
    const created = await link(user, 'file=wallet');
    const { path } = created.json() as { path: string };
    expect((await download(path)).statusCode).toBe(200);
    const ended = await send({ method: 'POST', url: '/auth/logout_all', headers: await t.authHeader(user) });
    expect(ended.statusCode).toBe(200);
    expect((await download(path)).statusCode).toBe(401);
  });

  it('refuse fields of another file and unknown files with the catalogue code', async () => {
    for (const query of [
      'file=deals&by=coin',
      'file=wallet&coin_user_id=1',
      'file=ledger',
      'file=pnl_daily&by=week',
    ]) {
      const answer = await link(trader, query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ error: true, code: 'VALIDATION' });
    }
    const missing = await download('/export/download.csv');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION' });
  });
});
