import type { Exchange, Order } from 'ccxt';
import { toOrder } from './normalize';
import type { ExchangeOrder } from './types';
import type { UserDataAccount, UserDataStreams } from './user-data/user-data-streams';

export type OrderStreamOptions = {
  /** Called with each order change the account's stream reports. */
  onUpdate: (order: ExchangeOrder) => void;
  /** A stream failure (it subscribes again by itself after a backoff). */
  onError?: (error: unknown) => void;
  /**
   * Called each time the subscription is confirmed; `resumed` after its connection was lost.
   * Updates sent while the stream was down are lost, so the caller then looks at everything again.
   */
  onSubscribed?: (info: { resumed: boolean }) => void;
};

/**
 * Follows the account's own order updates over a shared user data connection (`streams`) until the
 * returned function is called. Each `executionReport` is parsed as ccxt pro parses it
 * (`parseWsOrder`, with the venue's markets) into our order shape; each state of an order is
 * reported once, also when a connection replaced make-before-break delivers it twice.
 */
export const followOrderUpdates = (
  streams: UserDataStreams,
  account: UserDataAccount,
  parser: () => Promise<Exchange>,
  options: OrderStreamOptions,
): (() => Promise<void>) => {
  const delivered = new Set<string>();
  let parse: Exchange | undefined;
  const deliver = (event: Record<string, unknown>) => {
    if (event.e !== 'executionReport' || !parse) return;
    // The caller's failure is reported, never taken for a broken stream.
    try {
      const update = toOrder(
        (parse as unknown as { parseWsOrder: (o: unknown) => Order }).parseWsOrder(event),
      );
      const key = `${update.id}|${update.clientOrderId ?? ''}|${update.status}|${update.filled.toFixed()}`;
      if (delivered.has(key)) return;
      if (delivered.size >= 10_000) delivered.clear();
      delivered.add(key);
      options.onUpdate(update);
    } catch (error) {
      options.onError?.(error);
    }
  };
  return streams.follow(
    {
      id: account.id,
      // The parser's markets (symbol ids → symbols) are loaded before the first subscription.
      sign: async () => {
        parse ??= await parser();
        return account.sign();
      },
    },
    {
      onEvent: deliver,
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.onSubscribed ? { onSubscribed: options.onSubscribed } : {}),
    },
  );
};
