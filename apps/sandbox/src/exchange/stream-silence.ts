import type { WebSocket } from 'ws';

/**
 * A private stream gone silent, as real venues sometimes leave one: the TCP connection stays open
 * and the server sends nothing more (no event, no answer, no pong to a JSON or a protocol ping,
 * no ping of its own) and ignores what it receives, until the fault is lifted or the client closes
 * the connection. Only a client that counts the silence notices (packages/exchange
 * follow-private-stream.ts `silenceMs`, ws-api-connection.ts `silenceMs`).
 *
 * The fault names an account or every connection. A connection is silent while it follows a
 * silenced account — from the moment its login (Bybit `auth`, OKX `login`) names the account, so
 * the login is not answered either; on Binance, while it carries a subscription of the account,
 * and a subscription request naming the account is neither answered nor carried out — or while
 * every connection is silenced. New connections are silenced the same way while the fault is in
 * force; once it is lifted, every connection speaks again (what was pushed meanwhile is lost, not
 * queued).
 */
export class StreamSilence {
  private all = false;
  private readonly accounts = new Set<number>();

  /** Silences the connections of `accountId`, or every connection. */
  silence(accountId?: number): void {
    if (accountId === undefined) this.all = true;
    else this.accounts.add(accountId);
  }

  lift(): void {
    this.all = false;
    this.accounts.clear();
  }

  /** Whether a connection following these accounts (none: not logged in yet) is silent now. */
  covers(accountIds: Iterable<number | undefined>): boolean {
    if (this.all) return true;
    for (const id of accountIds) if (id !== undefined && this.accounts.has(id)) return true;
    return false;
  }
}

/**
 * The options of a WebSocket server whose connections can go silent. The `ws` library answers a
 * ping frame with a pong by itself, in its receiver, before any handler runs: a silent connection
 * would still prove itself alive that way. `autoPong: false` turns that off and `answerPings`
 * answers in its place, unless the connection is silent. (Pausing the socket instead would stop the
 * pongs too, but also keep the server from reading the client's close frame, or its FIN, so a
 * connection the client gave up on would stay open on the server.)
 */
export const SILENCEABLE_SERVER = { noServer: true, autoPong: false } as const;

/** Answers the client's ping frames with pongs (RFC 6455 §5.5.2) while the connection is not silent. */
export const answerPings = (ws: WebSocket, silent: () => boolean): void => {
  ws.on('ping', (data) => {
    if (!silent() && ws.readyState === ws.OPEN) ws.pong(data);
  });
};
