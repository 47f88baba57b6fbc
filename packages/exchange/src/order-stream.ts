import type { Exchange } from 'ccxt';
import { toOrder } from './normalize';
import type { ExchangeOrder } from './types';

export type OrderStreamOptions = {
  /** Called with each order change the account's stream reports. */
  onUpdate: (order: ExchangeOrder) => void;
  /** A stream failure (it reconnects by itself after a backoff). */
  onError?: (error: unknown) => void;
  /**
   * Called each time the subscription is confirmed; `resumed` after a failure. Updates sent while
   * the stream was down are lost, so the caller then looks at everything again.
   */
  onSubscribed?: (info: { resumed: boolean }) => void;
  /** First backoff after a failure (default 500 ms), doubled up to `maxBackoffMs` (default 30 s). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
};

type WsClient = { future: (hash: string) => Promise<unknown>; connected?: Promise<unknown> };

/**
 * ccxt pro rejects futures nobody awaits when a connection fails (the subscription future it
 * creates ahead, the connection's own): in Node an unhandled rejection ends the process. Every
 * future of our connections gets a no-op handler; the caller awaiting one still sees the error.
 */
const handleOrphanRejections = (exchange: Exchange): void => {
  const self = exchange as unknown as { client: (url: string) => WsClient };
  const open = self.client.bind(exchange);
  const seen = new WeakSet<WsClient>();
  self.client = (url: string) => {
    const client = open(url);
    if (seen.has(client)) return client;
    seen.add(client);
    client.connected?.catch(() => undefined);
    const future = client.future.bind(client);
    client.future = (hash: string) => {
      const promise = future(hash);
      promise.catch(() => undefined);
      return promise;
    };
    return client;
  };
};

/**
 * Follows the account's own order updates (ccxt pro `watchOrders`: Binance's user data stream) until
 * the returned function is called. Errors never end it: it closes the connections, waits (doubling
 * backoff) and subscribes again.
 */
export const streamOrderUpdates = (
  exchange: Exchange,
  options: OrderStreamOptions,
): (() => Promise<void>) => {
  const minBackoff = options.minBackoffMs ?? 500;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  handleOrphanRejections(exchange);
  let stopped = false;
  // Each state of an order once (ccxt's cache is read again after every subscription, below).
  const delivered = new Set<string>();
  // The caller's failure is reported, never taken for a broken stream.
  const deliver = (order: Parameters<typeof toOrder>[0]) => {
    try {
      const update = toOrder(order);
      const key = `${update.id}|${update.clientOrderId ?? ''}|${update.status}|${update.filled.toFixed()}`;
      if (delivered.has(key)) return;
      if (delivered.size >= 10_000) delivered.clear();
      delivered.add(key);
      options.onUpdate(update);
    } catch (error) {
      options.onError?.(error);
    }
  };
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  // ccxt pro's binance confirms the user data subscription in authenticate(), which watchOrders
  // calls too (then a no-op): calling it first tells when the stream is live.
  const authenticate = (exchange as unknown as { authenticate?: () => Promise<unknown> }).authenticate;
  const run = async () => {
    let backoff = minBackoff;
    let subscribed = false;
    let failures = 0;
    while (!stopped) {
      try {
        if (!subscribed) {
          // ccxt opens a plain ws:// URL (the local sandbox) only with an http agent loaded first.
          await exchange.loadHttpProxyAgent();
          await exchange.loadMarkets();
          if (authenticate) await authenticate.call(exchange);
          subscribed = true;
          backoff = minBackoff;
          options.onSubscribed?.({ resumed: failures > 0 });
          // An update that came in the same network read as the subscription's confirmation was
          // handled by ccxt before watchOrders below listened: ccxt keeps it in its order cache but
          // would return it only with the next update. Hand over what the cache holds now.
          const cached = (exchange as unknown as { orders?: Iterable<Parameters<typeof toOrder>[0]> }).orders;
          if (cached) for (const order of cached) deliver(order);
        }
        const orders = await exchange.watchOrders();
        for (const order of orders) deliver(order);
      } catch (error) {
        if (stopped) return;
        options.onError?.(error);
        subscribed = false;
        failures++;
        await exchange.close().catch(() => undefined);
        await pause(backoff);
        backoff = Math.min(backoff * 2, maxBackoff);
      }
    }
  };
  const running = run();

  return async () => {
    stopped = true;
    wake?.();
    await exchange.close().catch(() => undefined);
    await running;
  };
};
