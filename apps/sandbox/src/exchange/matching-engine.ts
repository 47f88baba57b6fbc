import { Decimal } from 'decimal.js';
import type { AccountBook } from './accounts';
import { binanceErrors } from './binance-error';
import { checkLotSize, checkNotional, checkPriceFilter, type Market } from './markets';
import { Dec, floorToStep, round8, ZERO } from './money';

export type OrderSide = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED';

/** Still resting on the book. */
const resting = (order: SandboxOrder) => order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';

export type SandboxOrder = {
  accountId: number;
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: OrderSide;
  type: OrderType;
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
export type SavedOrder = Decimals<
  SandboxOrder,
  'price' | 'origQty' | 'origQuoteOrderQty' | 'executedQty' | 'cummulativeQuoteQty' | 'locked'
>;
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
  | { kind: 'CANCELED'; order: SandboxOrder; cancelClientOrderId: string };

/** Called synchronously on every change, so the order it sees is exactly the changed state. */
export type OrderEventListener = (event: OrderEvent) => void;

export type OrderRequest = {
  side: OrderSide;
  type: OrderType;
  clientOrderId: string;
  price?: Decimal;
  quantity?: Decimal;
  quoteOrderQty?: Decimal;
};

/**
 * Orders, balances and fills. A resting limit order fills completely at its own price once the
 * market price crosses it; anything marketable on arrival fills at the current price. The fee
 * (0.1 % by default) is taken from the asset received, as on Binance without BNB discounts.
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
    private readonly feeRate: Decimal,
  ) {}

  /** Subscribes to every order change of every account; returns the unsubscribe function. */
  onOrderEvent(listener: OrderEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  place(accountId: number, market: Market, request: OrderRequest, lastPrice: Decimal) {
    if (this.openOrders(accountId).some((o) => o.clientOrderId === request.clientOrderId)) {
      throw binanceErrors.duplicateOrder();
    }
    const quantity = this.orderQuantity(market, request, lastPrice);
    const now = Date.now();
    const order: SandboxOrder = {
      accountId,
      symbol: market.symbol,
      orderId: this.nextOrderId++,
      clientOrderId: request.clientOrderId,
      side: request.side,
      type: request.type,
      price: request.type === 'LIMIT' ? request.price! : ZERO,
      origQty: quantity,
      origQuoteOrderQty: request.quoteOrderQty ?? ZERO,
      executedQty: ZERO,
      cummulativeQuoteQty: ZERO,
      status: 'NEW',
      time: now,
      updateTime: now,
      locked: ZERO,
    };
    const marketable =
      request.type === 'MARKET' ||
      (request.side === 'BUY' ? lastPrice.lte(order.price) : lastPrice.gte(order.price));
    // A limit order reserves at its own price first, as Binance does, even when it then fills lower.
    const reservePrice = request.type === 'LIMIT' ? order.price : lastPrice;
    const reserve = request.side === 'BUY' ? cost(quantity, reservePrice) : quantity;
    this.accounts.lock(accountId, request.side === 'BUY' ? market.quote : market.base, reserve);
    order.locked = reserve;
    this.store(order);
    this.emit({ kind: 'NEW', order });
    const fills = marketable ? [this.fill(order, market, lastPrice, false)] : [];
    return { order, fills };
  }

  cancel(
    accountId: number,
    market: Market,
    ref: { orderId?: number; clientOrderId?: string },
    cancelClientOrderId = '',
  ): SandboxOrder {
    const order = this.find(accountId, market.symbol, ref);
    if (!order || !resting(order)) throw binanceErrors.unknownOrder();
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

  /** Every account's resting orders of one market (a delisting cancels them all). */
  restingIn(symbol: string): SandboxOrder[] {
    return [...(this.openBySymbol.get(symbol) ?? [])];
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
  check(market: Market, request: OrderRequest, lastPrice: Decimal): void {
    this.orderQuantity(market, request, lastPrice);
  }

  /** Fills every resting order of the market that `price` crossed, each at its own limit price. */
  onPrice(market: Market, price: Decimal): SandboxTrade[] {
    const open = [...(this.openBySymbol.get(market.symbol) ?? [])];
    const crossed = open
      .filter((o) => (o.side === 'BUY' ? price.lte(o.price) : price.gte(o.price)))
      .sort(
        (a, b) => (a.side === 'BUY' ? b.price.cmp(a.price) : a.price.cmp(b.price)) || a.orderId - b.orderId,
      );
    return crossed.map((order) => this.fill(order, market, order.price, true));
  }

  /**
   * Fills `qty` of a resting limit order at its own price and leaves the rest resting
   * (PARTIALLY_FILLED), as when a taker takes only part of it: lets tests play partial fills.
   */
  fillPart(accountId: number, market: Market, ref: { clientOrderId: string }, qty: Decimal): SandboxTrade {
    const order = this.find(accountId, market.symbol, ref);
    if (!order || !resting(order) || order.type !== 'LIMIT') throw binanceErrors.unknownOrder();
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
      const order: SandboxOrder = { ...o, ...decimals(o, ORDER_DECIMALS) };
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

  private orderQuantity(market: Market, request: OrderRequest, lastPrice: Decimal): Decimal {
    if (request.type === 'LIMIT') {
      const price = request.price!;
      const quantity = request.quantity!;
      checkPriceFilter(market, price);
      checkLotSize(market, quantity);
      checkNotional(market, price, quantity);
      return quantity;
    }
    // quoteOrderQty: the quantity that quote amount buys (or sells) now, down to the lot step.
    const quantity = request.quantity ?? floorToStep(request.quoteOrderQty!.div(lastPrice), market.stepSize);
    checkLotSize(market, quantity);
    checkNotional(market, lastPrice, quantity);
    return quantity;
  }

  private fill(
    order: SandboxOrder,
    market: Market,
    price: Decimal,
    isMaker: boolean,
    part?: Decimal,
  ): SandboxTrade {
    const qty = part ?? order.origQty.sub(order.executedQty);
    const isBuyer = order.side === 'BUY';
    const quoteQty = isBuyer ? cost(qty, price) : proceeds(qty, price);
    const received = isBuyer ? qty : quoteQty;
    const commission = round8(received.mul(this.feeRate), Decimal.ROUND_HALF_UP);
    const commissionAsset = isBuyer ? market.base : market.quote;
    const paidAsset = isBuyer ? market.quote : market.base;
    const paid = isBuyer ? quoteQty : qty;
    this.accounts.spendLocked(order.accountId, paidAsset, paid);
    this.accounts.credit(order.accountId, commissionAsset, received.sub(commission));
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
