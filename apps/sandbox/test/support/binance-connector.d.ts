/** The few calls of @binance/connector (plain JavaScript, no types) that the sandbox tests use. */
declare module '@binance/connector' {
  // biome-ignore lint/suspicious/noExplicitAny: Binance's JSON as the client returns it; the tests check its shape.
  type Answer = Promise<{ data: any; headers: Record<string, string> }>;
  type Options = Record<string, string | number>;
  export class Spot {
    constructor(apiKey?: string, apiSecret?: string, options?: { baseURL?: string; timeout?: number });
    time(): Answer;
    exchangeInfo(options?: Options): Answer;
    klines(symbol: string, interval: string, options?: Options): Answer;
    tickerPrice(symbol?: string): Answer;
    ticker24hr(symbol?: string): Answer;
    newOrder(symbol: string, side: string, type: string, options?: Options): Answer;
    cancelOrder(symbol: string, options?: Options): Answer;
    getOrder(symbol: string, options?: Options): Answer;
    openOrders(options?: Options): Answer;
    account(options?: Options): Answer;
    myTrades(symbol: string, options?: Options): Answer;
  }
}
