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
 * Hands each raw order of a stream, parsed by `parse`, to `onUpdate`: each state of an order once,
 * also when a replaced or resumed connection delivers it twice. A parse or caller failure is
 * reported (`onError`), never taken for a broken stream.
 */
export const orderDelivery = (
  parse: (raw: unknown) => ExchangeOrder,
  options: OrderStreamOptions,
): ((raw: unknown) => void) => {
  const delivered = new Set<string>();
  return (raw) => {
    try {
      const update = parse(raw);
      const key = `${update.id}|${update.clientOrderId ?? ''}|${update.status}|${update.filled.toFixed()}`;
      if (delivered.has(key)) return;
      if (delivered.size >= 10_000) delivered.clear();
      delivered.add(key);
      options.onUpdate(update);
    } catch (error) {
      options.onError?.(error);
    }
  };
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
  let parse: Exchange | undefined;
  const deliverParsed = orderDelivery(
    (event) => toOrder((parse as unknown as { parseWsOrder: (o: unknown) => Order }).parseWsOrder(event)),
    options,
  );
  const deliver = (event: Record<string, unknown>) => {
    if (event.e !== 'executionReport' || !parse) return;
    deliverParsed(event);
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
