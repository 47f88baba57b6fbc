import { createHmac } from 'node:crypto';
import { okx } from '@gridbot/venues';
import { ExchangeError } from '../errors';
import type { PrivateStreamDialect, PrivateStreamFrame } from './follow-private-stream';

type Message = {
  event?: unknown;
  code?: unknown;
  msg?: unknown;
  arg?: { channel?: unknown };
  data?: unknown;
};

const { stream } = okx;

/**
 * OKX's v5 private WebSocket (docs/venues/okx.md#user-data-stream): `login` with the key, the
 * passphrase, a timestamp in seconds (it expires 30 s later) and the Base64 HMAC-SHA256 of timestamp
 * + `GET` + `/users/self/verify`; then the `orders` channel of SPOT, whose pushes carry orders in
 * the order list's shape. A refusal is `event: "error"` with OKX's code; the text `ping` is answered
 * `pong` and must be sent within 30 s of silence (OKX closes a connection silent that long, so we
 * ping every 20 s); `event: "notice"` code 64008 announces a close for an upgrade.
 */
export const okxOrderStream = (input: {
  url: string;
  apiKey: string;
  secret: string;
  passphrase: string;
  /** OKX's time now (ms), from the clock offset measured with the markets. */
  serverNow: () => Promise<number>;
}): PrivateStreamDialect => ({
  url: input.url,
  login: async () => {
    const timestamp = String(Math.floor((await input.serverNow()) / 1000));
    const sign = createHmac('sha256', input.secret)
      .update(`${timestamp}GET${stream.loginPath}`)
      .digest('base64');
    return JSON.stringify({
      op: 'login',
      args: [{ apiKey: input.apiKey, passphrase: input.passphrase, timestamp, sign }],
    });
  },
  subscribe: JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SPOT' }] }),
  ping: 'ping',
  pingEveryMs: stream.silenceCloseMs - 10_000,
  read: (text): PrivateStreamFrame => {
    if (text === 'pong') return { kind: 'other' };
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return { kind: 'other' };
    }
    if (typeof message !== 'object' || message === null) return { kind: 'other' };
    if (message.event === 'login') {
      return message.code === '0' ? { kind: 'logged-in' } : refused(message);
    }
    if (message.event === 'subscribe') return { kind: 'subscribed' };
    if (message.event === 'error' || message.event === 'channel-conn-count-error') return refused(message);
    if (message.event === 'notice' && message.code === stream.upgradeNoticeCode) return { kind: 'closing' };
    if (message.event === undefined && message.arg?.channel === 'orders' && Array.isArray(message.data)) {
      return { kind: 'orders', orders: message.data as unknown[] };
    }
    return { kind: 'other' };
  },
});

/** A refusal in OKX's words, read by the venue table (60009 "Login failure" is a key the venue refused). */
const refused = (message: Message): PrivateStreamFrame => {
  const code = typeof message.code === 'string' ? message.code : String(message.code ?? '');
  const words = typeof message.msg === 'string' ? message.msg : '';
  const outcome = okx.errors.codes[code]?.outcome;
  return {
    kind: 'refused',
    error: new ExchangeError(
      outcome === 'key-invalid' ? 'API_KEY_INVALID' : 'EXCHANGE_UNAVAILABLE',
      `OKX refused the private stream: ${code} ${words}`.trim(),
      { exchangeCode: code, exchangeMessage: words },
    ),
  };
};
