import { createHmac } from 'node:crypto';
import { bybit } from '@gridbot/venues';
import { ExchangeError } from '../errors';
import type { PrivateStreamDialect, PrivateStreamFrame } from './follow-private-stream';

/**
 * How far ahead of Bybit's clock the auth's `expires` is set: it must be later than the server's
 * time when the auth arrives (ws/connect.mdx); ccxt pro sends the same 10 s.
 */
const AUTH_VALID_MS = 10_000;

type Answer = { op?: unknown; success?: unknown; ret_msg?: unknown; topic?: unknown; data?: unknown };

/**
 * Bybit's v5 private stream (docs/venues/bybit.md#user-data-stream): `{"op":"auth","args":[key,
 * expires, hex HMAC-SHA256("GET/realtime" + expires)]}`, then the `order` topic; each push's `data`
 * holds orders in the shape of `GET /v5/order/realtime` plus `category` (only `spot` ones are ours).
 * Answers to auth and subscribe carry `success` and `ret_msg`; the client pings `{"op":"ping"}`
 * every 20 s (Bybit cuts a private connection without ping-pong or data).
 */
export const bybitOrderStream = (input: {
  url: string;
  apiKey: string;
  secret: string;
  /** Bybit's time now (ms), from the clock offset measured with the markets. */
  serverNow: () => Promise<number>;
}): PrivateStreamDialect => ({
  url: input.url,
  login: async () => {
    const expires = Math.round(await input.serverNow()) + AUTH_VALID_MS;
    const signature = createHmac('sha256', input.secret)
      .update(`${bybit.stream.authPayload}${expires}`)
      .digest('hex');
    return JSON.stringify({ req_id: 'auth', op: 'auth', args: [input.apiKey, expires, signature] });
  },
  subscribe: JSON.stringify({ req_id: 'order', op: 'subscribe', args: ['order'] }),
  ping: JSON.stringify({ op: 'ping' }),
  pingEveryMs: bybit.stream.pingEveryMs,
  read: (text): PrivateStreamFrame => {
    let answer: Answer;
    try {
      answer = JSON.parse(text) as Answer;
    } catch {
      return { kind: 'other' };
    }
    if (typeof answer !== 'object' || answer === null) return { kind: 'other' };
    if (answer.op === 'auth' || answer.op === 'subscribe') {
      if (answer.success === true) return { kind: answer.op === 'auth' ? 'logged-in' : 'subscribed' };
      const words = typeof answer.ret_msg === 'string' ? answer.ret_msg : '';
      return {
        kind: 'refused',
        error: new ExchangeError(
          answer.op === 'auth' ? 'API_KEY_INVALID' : 'EXCHANGE_UNAVAILABLE',
          `Bybit refused the private stream's ${answer.op}: ${words}`,
          { exchangeMessage: words },
        ),
      };
    }
    if (answer.topic === 'order' && Array.isArray(answer.data)) {
      const orders = answer.data.filter(
        (o) => (o as { category?: unknown } | null)?.category === 'spot',
      ) as unknown[];
      return { kind: 'orders', orders };
    }
    return { kind: 'other' };
  },
});
