import { Decimal } from 'decimal.js';
import type { AccountBook } from './accounts';
import { BNB, tradeCommission } from './commission';
import { planTake, restingAllowance, type TakerWant } from './liquidity';
import {
  checkLotSize,
  checkMaxNumOrders,
  checkNotional,
  checkPercentPriceBySide,
  checkPriceFilter,
  type Market,
} from './markets';
import { Dec, round8, ZERO } from './money';
import { refuse } from './refusal';

export type OrderSide = 'BUY' | 'SELL';
/** enums.md "Order types": the ones our clients send. LIMIT_MAKER is Binance's post-only limit. */
export type OrderType = 'LIMIT' | 'LIMIT_MAKER' | 'MARKET';
/** enums.md "Time in force". */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
/** enums.md "Order status": EXPIRED is an IOC/FOK or MARKET order's rest that could not fill. */
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

/** Still resting on the book. */
const resting = (order: SandboxOrder) => order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';

export type SandboxOrder = {
  accountId: number;
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: OrderSide;
  type: OrderType;
  timeInForce: TimeInForce;
  /** Limit price; zero for market orders (as Binance reports them). */
  price: Decimal;
  origQty: Decimal;
  origQuoteOrderQty: Decimal;
  executedQty: Decimal;
  cummulativeQuoteQty: Decimal;
  status: OrderStatus;
  time: number;
  updateTime: number;
  /** What the resting order still holds locked (quote for a buy, base for a sell). */
  locked: Decimal;
};

export type SandboxTrade = {
  id: number;
  accountId: number;
  symbol: string;
  orderId: number;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  commission: Decimal;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
};

type Decimals<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

/** An order as saved in the state file (decimals as strings). */
export type SavedOrder = Omit<
  Decimals<
    SandboxOrder,
    'price' | 'origQty' | 'origQuoteOrderQty' | 'executedQty' | 'cummulativeQuoteQty' | 'locked'
  >,
  'timeInForce'
> & { timeInForce?: TimeInForce };
export type SavedTrade = Decimals<SandboxTrade, 'price' | 'qty' | 'quoteQty' | 'commission'>;
export type SavedEngine = {
  nextOrderId: number;
  nextTradeId: number;
  orders: SavedOrder[];
  trades: SavedTrade[];
};

const ORDER_DECIMALS = [
  'price',
  'origQty',
  'origQuoteOrderQty',
  'executedQty',
  'cummulativeQuoteQty',
  'locked',
] as const;
const TRADE_DECIMALS = ['price', 'qty', 'quoteQty', 'commission'] as const;

/**
 * One change of an order, as Binance's user data stream reports it (`x`, the execution type):
 * accepted on the book, traded (partly or fully) or cancelled. `cancelClientOrderId` is the cancel
 * request's own id (Binance's `c` on a cancel; the order's id then goes in `C`).
 */
export type OrderEvent =
  | { kind: 'NEW'; order: SandboxOrder }
  | { kind: 'TRADE'; order: SandboxOrder; trade: SandboxTrade }
  | { kind: 'CANCELED'; order: SandboxOrder; cancelClientOrderId: string }
  | { kind: 'EXPIRED'; order: SandboxOrder };

/** Called synchronously on every change, so the order it sees is exactly the changed state. */
export type OrderEventListener = (event: OrderEvent) => void;

export type OrderRequest = {
  side: OrderSide;
  type: OrderType;
  clientOrderId: string;
  /** GTC when absent (MARKET and LIMIT_MAKER orders report GTC too). */
  timeInForce?: TimeInForce;
  price?: Decimal;
  quantity?: Decimal;
  quoteOrderQty?: Decimal;
};

/** The market's prices an order is checked and matched against. */
export type MarketPrices = {
  last: Decimal;
  /** The average over PERCENT_PRICE_BY_SIDE's avgPriceMins (average-price.ts). */
  average: Decimal;
};

/**
 * Orders, balances and fills, against a market of finite liquidity (liquidity.ts): a taker walks the
 * levels from the current price, one trade per level; a resting limit order crossed by the price
 * fills at its own price by what the step traded at and through it, so it usually fills in parts
 * over several steps (PARTIALLY_FILLED in between). The fee (0.1 % by default) is taken from the
 * asset received, or in BNB at Binance's discount for accounts that pay fees in BNB (commission.ts).
 */
export class MatchingEngine {
  private readonly ordersByAccount = new Map<number, SandboxOrder[]>();
  private readonly openBySymbol = new Map<string, Set<SandboxOrder>>();
  private readonly tradesByAccount = new Map<number, SandboxTrade[]>();
  private nextOrderId = 1;
  private nextTradeId = 1;
  private readonly listeners = new Set<OrderEventListener>();

  constructor(
    private readonly accounts: AccountBook,
    readonly feeRate: Decimal,
    /** The last price of a symbol, if the sandbox lists it (values BNB fees). */
    private readonly lastPriceOf: (symbol: string) => Decimal | undefined = () => undefined,
  ) {}

  /** Subscribes to every order change of every account; returns the unsubscribe function. */
  onOrderEvent(listener: OrderEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  place(accountId: number, market: Market, request: OrderRequest, prices: MarketPrices) {
    if (this.hasOpen(accountId, request.clientOrderId)) throw refuse({ kind: 'duplicateOrder' });
    const last = prices.last;
    const isLimit = request.type !== 'MARKET';
    const marketable =
      !isLimit || (request.side === 'BUY' ? last.lte(request.price!) : last.gte(request.price!));
    if (isLimit) this.checkLimitFilters(market, request, prices.average);
    // rest-api.md "LIMIT_MAKER": rejected if it would immediately match and trade as a taker.
    if (request.type === 'LIMIT_MAKER' && marketable) throw refuse({ kind: 'wouldTake' });
    const want: TakerWant = request.quantity ? { qty: request.quantity } : { quote: request.quoteOrderQty! };
    const plan = marketable
      ? planTake(market, request.side, last, want, isLimit ? request.price : undefined)
      : [];
    const quantity = request.quantity ?? plan.reduce((sum, t) => sum.add(t.qty), ZERO);
    if (!isLimit) {
      checkLotSize(market, quantity);
      checkNotional(market, last, quantity);
    }
    // filters.md#max_num_orders: the new order would be one more open order on the symbol.
    checkMaxNumOrders(market, this.openCount(accountId, market.symbol));
    const now = Date.now();
    const order: SandboxOrder = {
      accountId,
      symbol: market.symbol,
      orderId: this.nextOrderId++,
      clientOrderId: request.clientOrderId,
      side: request.side,
      type: request.type,
      timeInForce: request.timeInForce ?? 'GTC',
      price: isLimit ? request.price! : ZERO,
      origQty: quantity,
      origQuoteOrderQty: request.quoteOrderQty ?? ZERO,
      executedQty: ZERO,
      cummulativeQuoteQty: ZERO,
      status: 'NEW',
      time: now,
      updateTime: now,
      locked: ZERO,
    };
    // A limit order reserves at its own price, as Binance does, even when it then fills lower; a
    // market order what its sweep of the book costs.
    const reserve =
      request.side === 'SELL'
        ? quantity
        : isLimit
          ? cost(quantity, order.price)
          : plan.reduce((sum, t) => sum.add(cost(t.qty, t.price)), ZERO);
    this.accounts.lock(accountId, request.side === 'BUY' ? market.quote : market.base, reserve);
    order.locked = reserve;
    this.store(order);
    this.emit({ kind: 'NEW', order });
    const planned = plan.reduce((sum, t) => sum.add(t.qty), ZERO);
    // enums.md "Time in force": FOK expires whole unless all of it can fill now.
    if (order.timeInForce === 'FOK' && planned.lt(quantity)) {
      this.expire(order, market);
      return { order, fills: [] };
    }
    const fills = plan.map((t) => this.fill(order, market, t.price, false, t.qty));
    // IOC and MARKET orders never rest: what could not fill now expires (enums.md "Order status").
    if (resting(order) && (order.type === 'MARKET' || order.timeInForce === 'IOC'))
      this.expire(order, market);
    return { order, fills };
  }

  cancel(
    accountId: number,
    market: Market,
    ref: { orderId?: number; clientOrderId?: string },
    cancelClientOrderId = '',
  ): SandboxOrder {
    const order = this.find(accountId, market.symbol, ref);
    if (!order || !resting(order)) throw refuse({ kind: 'unknownOrder' });
    this.release(order, market);
    order.status = 'CANCELED';
    order.updateTime = Date.now();
    this.openBySymbol.get(order.symbol)?.delete(order);
    this.emit({ kind: 'CANCELED', order, cancelClientOrderId });
    return order;
  }

  /** By id, or by client id (the newest such order: a client id is unique only among open orders). */
  find(accountId: number, symbol: string, ref: { orderId?: number; clientOrderId?: string }) {
    const own = (this.ordersByAccount.get(accountId) ?? []).filter((o) => o.symbol === symbol);
    if (ref.orderId !== undefined) return own.find((o) => o.orderId === ref.orderId);
    return own.findLast((o) => o.clientOrderId === ref.clientOrderId);
  }

  openOrders(accountId: number, symbol?: string): SandboxOrder[] {
    return (this.ordersByAccount.get(accountId) ?? []).filter(
      (o) => resting(o) && (symbol === undefined || o.symbol === symbol),
    );
  }

  /** Whether a resting order of the account has this client id (walks the books, not the account's history). */
  private hasOpen(accountId: number, clientOrderId: string): boolean {
    for (const open of this.openBySymbol.values()) {
      for (const o of open) if (o.accountId === accountId && o.clientOrderId === clientOrderId) return true;
    }
    return false;
  }

  /** The account's resting orders on the symbol (walks the symbol's book, not the account's history). */
  private openCount(accountId: number, symbol: string): number {
    let count = 0;
    for (const o of this.openBySymbol.get(symbol) ?? []) if (o.accountId === accountId) count++;
    return count;
  }

  allOrders(accountId: number, symbol?: string): SandboxOrder[] {
    return (this.ordersByAccount.get(accountId) ?? []).filter(
      (o) => symbol === undefined || o.symbol === symbol,
    );
  }

  trades(accountId: number, symbol?: string): SandboxTrade[] {
    return (this.tradesByAccount.get(accountId) ?? []).filter(
      (t) => symbol === undefined || t.symbol === symbol,
    );
  }

  /** Every account's resting orders of a market (the public order book). */
  restingOrders(symbol: string): SandboxOrder[] {
    return [...(this.openBySymbol.get(symbol) ?? [])];
  }

  /** Every account's trades of a market, oldest first (the public trade list). */
  marketTrades(symbol: string): SandboxTrade[] {
    return [...this.tradesByAccount.values()]
      .flatMap((list) => list.filter((t) => t.symbol === symbol))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * Runs a new order's filters without placing it (POST /api/v3/order/test: "validates a new order
   * but does not send it into the matching engine", so no balance check).
   */
  check(accountId: number, market: Market, request: OrderRequest, prices: MarketPrices): void {
    const isLimit = request.type !== 'MARKET';
    if (isLimit) this.checkLimitFilters(market, request, prices.average);
    else {
      const want: TakerWant = request.quantity
        ? { qty: request.quantity }
        : { quote: request.quoteOrderQty! };
      const quantity =
        request.quantity ??
        planTake(market, request.side, prices.last, want, undefined).reduce((sum, t) => sum.add(t.qty), ZERO);
      checkLotSize(market, quantity);
      checkNotional(market, prices.last, quantity);
    }
    const marketable =
      !isLimit ||
      (request.side === 'BUY' ? prices.last.lte(request.price!) : prices.last.gte(request.price!));
    if (request.type === 'LIMIT_MAKER' && marketable) throw refuse({ kind: 'wouldTake' });
    checkMaxNumOrders(market, this.openCount(accountId, market.symbol));
  }

  /**
   * One price step: every resting order that `price` crossed fills at its own limit price, by as
   * much as the step traded at and through that price (liquidity.ts); orders at the same price share
   * it in time priority, and what is left fills on later steps that cross it again.
   */
  onPrice(market: Market, price: Decimal): SandboxTrade[] {
    const open = [...(this.openBySymbol.get(market.symbol) ?? [])];
    const crossed = open
      .filter((o) => (o.side === 'BUY' ? price.lte(o.price) : price.gte(o.price)))
      .sort(
        (a, b) => (a.side === 'BUY' ? b.price.cmp(a.price) : a.price.cmp(b.price)) || a.orderId - b.orderId,
      );
    const takenAt = new Map<string, Decimal>();
    const trades: SandboxTrade[] = [];
    for (const order of crossed) {
      const left = order.origQty.sub(order.executedQty);
      const allowance = restingAllowance(market, order.price, price);
      if (allowance === 'all') {
        trades.push(this.fill(order, market, order.price, true, left));
        continue;
      }
      const level = `${order.side}:${order.price.toFixed()}`;
      const taken = takenAt.get(level) ?? ZERO;
      const qty = Dec.min(left, allowance.sub(taken));
      if (qty.lte(0)) continue;
      takenAt.set(level, taken.add(qty));
      trades.push(this.fill(order, market, order.price, true, qty));
    }
    return trades;
  }

  /**
   * Fills `qty` of a resting limit order at its own price and leaves the rest resting
   * (PARTIALLY_FILLED), as when a taker takes only part of it: lets tests play partial fills.
   */
  fillPart(accountId: number, market: Market, ref: { clientOrderId: string }, qty: Decimal): SandboxTrade {
    const order = this.find(accountId, market.symbol, ref);
    if (!order || !resting(order) || order.type !== 'LIMIT') throw refuse({ kind: 'unknownOrder' });
    if (!qty.gt(0) || !qty.lt(order.origQty.sub(order.executedQty))) {
      throw new Error(`a part must be above 0 and below the ${order.origQty.sub(order.executedQty)} left`);
    }
    return this.fill(order, market, order.price, true, qty);
  }

  save(): SavedEngine {
    const orders = [...this.ordersByAccount.values()].flat().sort((a, b) => a.orderId - b.orderId);
    const trades = [...this.tradesByAccount.values()].flat().sort((a, b) => a.id - b.id);
    return {
      nextOrderId: this.nextOrderId,
      nextTradeId: this.nextTradeId,
      orders: orders.map((o) => ({ ...o, ...strings(o, ORDER_DECIMALS) })),
      trades: trades.map((t) => ({ ...t, ...strings(t, TRADE_DECIMALS) })),
    };
  }

  /**
   * Replaces every order and trade with saved ones. Resting orders go back on the book; the
   * balances they lock come with the saved accounts. Ids continue after the highest saved one, so
   * an id is never given twice.
   */
  load(saved: SavedEngine): void {
    this.ordersByAccount.clear();
    this.openBySymbol.clear();
    this.tradesByAccount.clear();
    for (const o of saved.orders) {
      // Files written before time in force was kept hold GTC orders only.
      const order: SandboxOrder = {
        ...o,
        timeInForce: o.timeInForce ?? 'GTC',
        ...decimals(o, ORDER_DECIMALS),
      };
      const list = this.ordersByAccount.get(order.accountId) ?? [];
      list.push(order);
      this.ordersByAccount.set(order.accountId, list);
      if (resting(order)) this.addOpen(order);
    }
    for (const t of saved.trades) {
      const trade: SandboxTrade = { ...t, ...decimals(t, TRADE_DECIMALS) };
      const list = this.tradesByAccount.get(trade.accountId) ?? [];
      list.push(trade);
      this.tradesByAccount.set(trade.accountId, list);
    }
    this.nextOrderId = Math.max(saved.nextOrderId, ...saved.orders.map((o) => o.orderId + 1));
    this.nextTradeId = Math.max(saved.nextTradeId, ...saved.trades.map((t) => t.id + 1));
  }

  /**
   * A limit order's filters (errors.md#filter-failures, -1013): first those on the order alone,
   * then the one that depends on the market's recent prices.
   */
  private checkLimitFilters(market: Market, request: OrderRequest, averagePrice: Decimal): void {
    const price = request.price!;
    const quantity = request.quantity!;
    checkPriceFilter(market, price);
    checkLotSize(market, quantity);
    checkNotional(market, price, quantity);
    checkPercentPriceBySide(market, request.side, price, averagePrice);
  }

  private fill(
    order: SandboxOrder,
    market: Market,
    price: Decimal,
    isMaker: boolean,
    qty: Decimal,
  ): SandboxTrade {
    const isBuyer = order.side === 'BUY';
    const quoteQty = isBuyer ? cost(qty, price) : proceeds(qty, price);
    const received = isBuyer ? qty : quoteQty;
    const receivedAsset = isBuyer ? market.base : market.quote;
    const paidAsset = isBuyer ? market.quote : market.base;
    const paid = isBuyer ? quoteQty : qty;
    const fee = tradeCommission({
      rate: this.feeRate,
      received,
      receivedAsset,
      price,
      isBuyer,
      bnb: this.bnbForFees(order.accountId, market),
    });
    this.accounts.spendLocked(order.accountId, paidAsset, paid);
    if (fee.inBnb) this.accounts.spendFree(order.accountId, BNB, fee.amount);
    this.accounts.credit(order.accountId, receivedAsset, fee.inBnb ? received : received.sub(fee.amount));
    const commission = fee.amount;
    const commissionAsset = fee.asset;
    order.locked = order.locked.sub(paid);
    order.executedQty = order.executedQty.add(qty);
    order.cummulativeQuoteQty = order.cummulativeQuoteQty.add(quoteQty);
    order.updateTime = Date.now();
    if (order.executedQty.lt(order.origQty)) {
      order.status = 'PARTIALLY_FILLED';
    } else {
      this.release(order, market);
      order.status = 'FILLED';
      this.openBySymbol.get(order.symbol)?.delete(order);
    }
    const trade: SandboxTrade = {
      id: this.nextTradeId++,
      accountId: order.accountId,
      symbol: order.symbol,
      orderId: order.orderId,
      price,
      qty,
      quoteQty,
      commission,
      commissionAsset,
      time: order.updateTime,
      isBuyer,
      isMaker,
    };
    const list = this.tradesByAccount.get(order.accountId) ?? [];
    list.push(trade);
    this.tradesByAccount.set(order.accountId, list);
    this.emit({ kind: 'TRADE', order, trade });
    return trade;
  }

  /** The account pays fees in BNB and the sandbox prices BNB in the market's quote: its free BNB and that price. */
  private bnbForFees(accountId: number, market: Market) {
    if (!this.accounts.paysFeesInBnb(accountId)) return undefined;
    const price = this.lastPriceOf(`${BNB}${market.quote}`);
    return price ? { price, free: this.accounts.holding(accountId, BNB).free } : undefined;
  }

  /** The rest of an order that may not rest (IOC, FOK, MARKET) expires and gives back its lock. */
  private expire(order: SandboxOrder, market: Market): void {
    this.release(order, market);
    order.status = 'EXPIRED';
    order.updateTime = Date.now();
    this.openBySymbol.get(order.symbol)?.delete(order);
    this.emit({ kind: 'EXPIRED', order });
  }

  /** A listener's failure must not undo a trade that already happened: it is reported, not thrown. */
  private emit(event: OrderEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('sandbox order event listener failed:', error);
      }
    }
  }

  /** Returns whatever the order still holds locked to the free balance. */
  private release(order: SandboxOrder, market: Market): void {
    if (order.locked.isZero()) return;
    this.accounts.unlock(order.accountId, order.side === 'BUY' ? market.quote : market.base, order.locked);
    order.locked = ZERO;
  }

  private store(order: SandboxOrder): void {
    const list = this.ordersByAccount.get(order.accountId) ?? [];
    list.push(order);
    this.ordersByAccount.set(order.accountId, list);
    this.addOpen(order);
  }

  private addOpen(order: SandboxOrder): void {
    const open = this.openBySymbol.get(order.symbol) ?? new Set<SandboxOrder>();
    open.add(order);
    this.openBySymbol.set(order.symbol, open);
  }
}

/** What a buyer pays: rounded up to 8 decimals, so the exchange never pays out a fraction. */
const cost = (qty: Decimal, price: Decimal): Decimal => round8(qty.mul(price), Decimal.ROUND_UP);
/** What a seller receives before the fee: rounded down to 8 decimals. */
const proceeds = (qty: Decimal, price: Decimal): Decimal => round8(qty.mul(price), Decimal.ROUND_DOWN);

const strings = <T, K extends keyof T>(value: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, (value[k] as Decimal).toFixed()])) as { [P in K]: string };

const decimals = <T, K extends keyof T>(value: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, new Dec(value[k] as string)])) as { [P in K]: Decimal };
