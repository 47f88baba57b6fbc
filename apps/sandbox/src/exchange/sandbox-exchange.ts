import type { Decimal } from 'decimal.js';
import { AccountBook, type SavedAccounts } from './accounts';
import { AveragePrice } from './average-price';
import { CandlePast } from './candle-past';
import { KlineHistory, type SavedMinute } from './klines';
import { type LiquiditySpec, toLiquidity } from './liquidity';
import {
  changeFilters,
  checkTrading,
  type Market,
  type MarketFilterChange,
  type MarketSpec,
  type SymbolStatus,
  toMarket,
} from './markets';
import { MatchingEngine, type OrderRequest, type SandboxTrade, type SavedEngine } from './matching-engine';
import { Dec, roundToStep, ZERO } from './money';
import { createPriceFeed, type FeedPosition, type PriceFeed, type PriceFeedSpec } from './price-feed';
import { RateLimits } from './rate-limits';
import { refuse } from './refusal';
import { StreamSilence } from './stream-silence';

export type SandboxMarketConfig = MarketSpec & { feed: PriceFeedSpec };

export type MarketState = {
  market: Market;
  feed: PriceFeed;
  price: Decimal;
  history: KlineHistory;
  /** Delisted: gone from exchangeInfo, every endpoint answers -1121 for it (its history is kept). */
  delisted: boolean;
  /** Its prices of the last minutes, for PERCENT_PRICE_BY_SIDE and GET /api/v3/avgPrice. */
  averagePrice: AveragePrice;
  /** A replayed market's past ending at `end` (candle-past.ts); undefined for other feeds. */
  pastEndingAt: (end: number) => CandlePast | undefined;
};

/**
 * A market's saved place: its price, where its feed stands, its recent history and where its past
 * ends (so that the past does not move when the sandbox restarts).
 */
export type SavedMarket = {
  symbol: string;
  price: string;
  feed: FeedPosition;
  history: SavedMinute[];
  pastEnd?: number;
  /** Status, filters and listing as the control API last set them (absent in older files: as configured). */
  status?: SymbolStatus;
  filters?: { tickSize: string; stepSize: string; minQty: string; minNotional: string };
  delisted?: boolean;
};

/** Everything the exchange needs to continue where it stopped (see state-file.ts for the file). */
export type SavedExchange = { accounts: SavedAccounts; engine: SavedEngine; markets: SavedMarket[] };

/** How the response to an order request goes wrong after the order was executed. */
export type OrderResponseFault =
  /** The connection is closed without an answer. */
  | { kind: 'drop' }
  /** The answer comes `delayMs` late (longer than the client's timeout). */
  | { kind: 'delay'; delayMs: number }
  /** Binance's -1007 "execution status unknown" (HTTP 503). */
  | { kind: 'unknown' };

/**
 * A while in which the exchange misbehaves as Binance does in an incident (apps/sandbox/README.md#faults):
 * `error` — every API request answers 503 without doing anything; `timeout` — every API request
 * is answered `delayMs` late (new orders are executed first); `unknown` — every new order is
 * executed and answered -1007 (execution status unknown).
 */
export type ExchangeOutage = { kind: 'error' | 'timeout' | 'unknown'; forMs: number; delayMs?: number };

/** Markets the sandbox lists when none are given: random walks at realistic levels and filters. */
export const DEFAULT_MARKETS: SandboxMarketConfig[] = [
  {
    base: 'BTC',
    quote: 'USDT',
    tickSize: '0.01',
    stepSize: '0.00001',
    minNotional: '5',
    feed: { kind: 'random-walk', start: '60000', seed: 1 },
  },
  {
    base: 'ETH',
    quote: 'USDT',
    tickSize: '0.01',
    stepSize: '0.0001',
    minNotional: '5',
    feed: { kind: 'random-walk', start: '3000', seed: 2 },
  },
  {
    base: 'XRP',
    quote: 'USDT',
    tickSize: '0.0001',
    stepSize: '0.1',
    minNotional: '5',
    feed: { kind: 'random-walk', start: '0.6', seed: 3 },
  },
];

/**
 * The exchange's state: markets with their price feeds, accounts and the matching engine, which
 * runs on every price step. Transport-free: the HTTP routes and the control handle both call it.
 */
export class SandboxExchange {
  readonly accounts = new AccountBook();
  readonly engine: MatchingEngine;
  /**
   * Binance's rate limits, enforced per IP and per account (not saved: a restart starts them
   * afresh), their windows on the venue's clock (the control API's skew moves it), as Bybit's and
   * OKX's dialects count theirs.
   */
  readonly rateLimits = new RateLimits({}, () => this.now());
  private readonly markets = new Map<string, MarketState>();
  private readonly faults: OrderResponseFault[] = [];
  private outage: (ExchangeOutage & { until: number }) | undefined;
  /** The Binance dialect's private streams gone silent (user-data-socket.ts); Bybit's and OKX's are their dialects' faults. */
  readonly streamSilence = new StreamSilence();
  /**
   * How many of the next WebSocket API subscriptions (`userDataStream.subscribe.signature`) are
   * carried out with their answer lost on the way (user-data-socket.ts): the account is subscribed
   * and its events flow under a subscription id the client never learnt.
   */
  lostSubscribeAnswers = 0;
  /** How far the exchange's clock is from this host's (the control API's clock skew), ms. */
  private clockOffsetMs = 0;

  /** The trading fee as a fraction of the received asset (0.001 for 0.1 %). */
  readonly feeRate: Decimal;

  constructor(markets: SandboxMarketConfig[], feeRatePct: string) {
    this.feeRate = new Dec(feeRatePct).div(100);
    this.engine = new MatchingEngine(
      this.accounts,
      this.feeRate,
      (symbol) => this.markets.get(symbol)?.price,
    );
    for (const config of markets) this.addMarket(config);
  }

  addMarket(config: SandboxMarketConfig): Market {
    const market = toMarket(config);
    if (this.markets.has(market.symbol)) throw new Error(`market ${market.symbol} already exists`);
    const feed = createPriceFeed(config.feed);
    const spec = config.feed;
    const state: MarketState = {
      market,
      feed,
      price: roundToStep(feed.start, market.tickSize),
      history: new KlineHistory(),
      delisted: false,
      averagePrice: new AveragePrice(),
      pastEndingAt: (end) =>
        spec.kind === 'candles' && spec.candles.length > 0
          ? new CandlePast(
              spec.candles,
              spec.firstClose ? new Dec(spec.firstClose).div(spec.candles[0]!.close) : new Dec(1),
              end,
            )
          : undefined,
    };
    const now = Date.now();
    state.history.past = state.pastEndingAt(now);
    state.history.record(state.price, ZERO, 0, now);
    state.averagePrice.record(state.price, now);
    this.markets.set(market.symbol, state);
    return market;
  }

  /** The listed markets (a delisted one is gone from every listing). */
  listMarkets(): MarketState[] {
    return [...this.markets.values()].filter((s) => !s.delisted);
  }

  /** The listed market by Binance id ("BTCUSDT"); -1121 otherwise (unknown or delisted). */
  market(symbol: string): MarketState {
    const state = this.markets.get(symbol.toUpperCase().replace('/', ''));
    if (!state || state.delisted) throw refuse({ kind: 'unknownSymbol' });
    return state;
  }

  /** The exchange's clock: this host's, shifted by the control API's skew (GET /api/v3/time, signatures). */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Shifts the exchange's clock by `offsetMs` from this host's (0 puts it back). */
  skewClock(offsetMs: number): void {
    this.clockOffsetMs = offsetMs;
  }

  /**
   * Sets a symbol's status (enums.md#symbol-status-status). Outside TRADING, new orders answer
   * "Market is closed." and nothing matches; resting orders stay on the book.
   */
  setStatus(symbol: string, status: SymbolStatus): Market {
    const { market } = this.market(symbol);
    market.status = status;
    return market;
  }

  /** Changes a market's tick, lot step, minimum quantity or minimum notional (markets.ts changeFilters). */
  setFilters(symbol: string, change: MarketFilterChange): Market {
    const { market } = this.market(symbol);
    changeFilters(market, change);
    return market;
  }

  /**
   * Delists a market as Binance does: its resting orders are cancelled (the funds released), it
   * leaves exchangeInfo and every request naming it answers -1121 "Invalid symbol.".
   */
  delist(symbol: string): void {
    const state = this.market(symbol);
    for (const order of this.engine.restingOrders(state.market.symbol)) {
      this.engine.cancel(order.accountId, state.market, { orderId: order.orderId });
    }
    state.delisted = true;
  }

  /** Moves a market to `price` (rounded to its tick) and fills the resting orders it crossed. */
  setPrice(symbol: string, price: Decimal | string): SandboxTrade[] {
    const state = this.market(symbol);
    state.price = roundToStep(new Dec(price), state.market.tickSize);
    state.averagePrice.record(state.price);
    // A symbol in BREAK or HALT does not match (its book is frozen until it trades again).
    const fills = state.market.status === 'TRADING' ? this.engine.onPrice(state.market, state.price) : [];
    state.history.record(state.price, sumQty(fills), fills.length);
    return fills;
  }

  /** Advances the price feed of one market (or of all) by `steps`, matching after every step. */
  advance(steps = 1, symbol?: string): SandboxTrade[] {
    const states = symbol === undefined ? this.listMarkets() : [this.market(symbol)];
    const fills: SandboxTrade[] = [];
    for (let i = 0; i < steps; i++) {
      for (const state of states) fills.push(...this.setPrice(state.market.symbol, state.feed.next()));
    }
    return fills;
  }

  /** How much the market trades per level and step from now on (liquidity.ts). */
  setLiquidity(symbol: string, liquidity: LiquiditySpec): void {
    this.market(symbol).market.liquidity = toLiquidity(liquidity);
  }

  placeOrder(accountId: number, symbol: string, request: OrderRequest) {
    const state = this.market(symbol);
    checkTrading(state.market);
    const average = state.averagePrice.over(state.market.percentPriceBySide.avgPriceMins, state.price);
    const result = this.engine.place(accountId, state.market, request, { last: state.price, average });
    if (result.fills.length > 0) state.history.record(state.price, sumQty(result.fills), result.fills.length);
    return result;
  }

  save(): SavedExchange {
    return {
      accounts: this.accounts.save(),
      engine: this.engine.save(),
      markets: [...this.markets.values()].map((s) => ({
        symbol: s.market.symbol,
        price: s.price.toFixed(),
        feed: s.feed.position(),
        history: s.history.save(),
        ...(s.history.past ? { pastEnd: s.history.past.end } : {}),
        status: s.market.status,
        filters: {
          tickSize: s.market.tickSize.toFixed(),
          stepSize: s.market.stepSize.toFixed(),
          minQty: s.market.minQty.toFixed(),
          minNotional: s.market.minNotional.toFixed(),
        },
        ...(s.delisted ? { delisted: true } : {}),
      })),
    };
  }

  /**
   * Continues from a saved state. Markets come from the configuration: a saved market it no longer
   * lists is refused (its orders and balances would be stranded); a configured market the state
   * does not know starts from its beginning.
   */
  load(saved: SavedExchange): void {
    for (const m of saved.markets) {
      if (!this.markets.has(m.symbol)) {
        throw new Error(`it holds market ${m.symbol}, which this sandbox is not configured with`);
      }
    }
    for (const m of saved.markets) {
      const state = this.markets.get(m.symbol)!;
      if (m.status) state.market.status = m.status;
      if (m.filters) changeFilters(state.market, m.filters);
      state.delisted = m.delisted === true;
      state.feed.seek(m.feed);
      state.price = new Dec(m.price);
      state.averagePrice.record(state.price);
      state.history.load(m.history);
      if (m.pastEnd !== undefined) state.history.past = state.pastEndingAt(m.pastEnd);
    }
    this.accounts.load(saved.accounts);
    this.engine.load(saved.engine);
  }

  failNextOrderResponse(fault: OrderResponseFault): void {
    this.faults.push(fault);
  }

  takeOrderResponseFault(): OrderResponseFault | undefined {
    const outage = this.currentOutage();
    if (outage?.kind === 'unknown') return { kind: 'unknown' };
    if (outage?.kind === 'timeout') return { kind: 'delay', delayMs: outage.delayMs ?? 15_000 };
    return this.faults.shift();
  }

  startOutage(outage: ExchangeOutage): void {
    this.outage = { ...outage, until: Date.now() + outage.forMs };
  }

  /** The outage in force now, if any. */
  currentOutage(): ExchangeOutage | undefined {
    if (this.outage && this.outage.until <= Date.now()) this.outage = undefined;
    return this.outage;
  }
}

const sumQty = (fills: SandboxTrade[]): Decimal => fills.reduce((sum, t) => sum.add(t.qty), ZERO);
