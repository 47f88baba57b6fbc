import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';

/** A WebSocket API answer with an error (`{ status, error: { code, msg } }`), or a refused connection. */
export class WsApiError extends Error {
  override name = 'WsApiError';

  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    /** How long the venue asks us to wait (Retry-After, `retryAfter`), when it says. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export type WsApiHandlers = {
  /** A user data event and the subscription it belongs to (web-socket-api.md "Event format"). */
  onEvent: (subscriptionId: number | undefined, event: Record<string, unknown>) => void;
  /** `serverShutdown`: the server closes this connection soon (web-socket-api.md#serverShutdown). */
  onShutdown: () => void;
  /** The connection is gone (by either side); called once. */
  onClose: (reason: string) => void;
};

export type WsApiConnectionOptions = {
  /** How long a request waits for its answer (default 10 s: Binance's own backend timeout). */
  requestTimeoutMs?: number;
  /**
   * Binance pings every 20 s (the `ws` library answers with the pong): a connection silent for
   * this long (default 65 s) is dead and is closed (web-socket-api.md "General API Information").
   */
  silenceMs?: number;
  /** How long the opening handshake may take (default 10 s). */
  openTimeoutMs?: number;
};

type Pending = {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

export type WsApiConnection = {
  /**
   * Sends a request and resolves with its `result`. `onResult` runs synchronously as the answer
   * is read, before any later frame of the same read is handled (an event that follows a
   * subscription's answer must find the subscription known).
   */
  request: (
    method: string,
    params?: Record<string, unknown>,
    onResult?: (result: unknown) => void,
  ) => Promise<unknown>;
  close: () => void;
  readonly open: boolean;
};

const retryAfterOf = (response: IncomingMessage): number | undefined => {
  const seconds = Number(response.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
};

/** Opens one WebSocket API connection (web-socket-api.md "Request format", "Response format"). */
export const openWsApiConnection = (
  url: string,
  handlers: WsApiHandlers,
  options: WsApiConnectionOptions = {},
): Promise<WsApiConnection> =>
  new Promise((resolve, reject) => {
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    const silenceMs = options.silenceMs ?? 65_000;
    const socket = new WebSocket(url, { handshakeTimeout: options.openTimeoutMs ?? 10_000 });
    const pending = new Map<number, Pending & { onResult?: (result: unknown) => void }>();
    let nextId = 1;
    let opened = false;
    let closed = false;
    let silence: NodeJS.Timeout | undefined;
    let silent = false;

    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => {
        // A venue that keeps the connection open and sends nothing (no ping): said so in the close reason.
        silent = true;
        socket.terminate();
      }, silenceMs);
      silence.unref();
    };
    const finish = (reason: string) => {
      if (closed) return;
      closed = true;
      if (silence) clearTimeout(silence);
      for (const [, request] of pending) {
        clearTimeout(request.timer);
        request.reject(new WsApiError(0, undefined, `connection closed: ${reason}`));
      }
      pending.clear();
      if (opened) handlers.onClose(reason);
    };

    // A refused handshake: Binance answers over HTTP (429 over the connection limit, 418 banned).
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => {
        let code: number | undefined;
        let msg = body || `HTTP ${response.statusCode}`;
        try {
          const parsed = JSON.parse(body) as { code?: number; msg?: string };
          code = parsed.code;
          msg = parsed.msg ?? msg;
        } catch {}
        reject(new WsApiError(response.statusCode ?? 0, code, msg, retryAfterOf(response)));
        socket.terminate();
      });
    });
    socket.on('error', (error) => {
      if (!opened) reject(error);
      finish(error.message);
    });
    socket.on('close', (code, reason) =>
      finish(silent ? `silent for ${silenceMs} ms` : `closed ${code} ${reason.toString()}`.trim()),
    );
    socket.on('ping', heard);
    socket.on('pong', heard);
    socket.on('message', (data) => {
      heard();
      let message: {
        id?: unknown;
        status?: number;
        result?: unknown;
        error?: { code?: number; msg?: string };
        subscriptionId?: number;
        event?: Record<string, unknown>;
      };
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      if (message.event && typeof message.event === 'object') {
        if (message.event.e === 'serverShutdown') return handlers.onShutdown();
        return handlers.onEvent(message.subscriptionId, message.event);
      }
      const request = typeof message.id === 'number' ? pending.get(message.id) : undefined;
      if (!request) return;
      pending.delete(message.id as number);
      clearTimeout(request.timer);
      if (message.status === 200) {
        request.onResult?.(message.result);
        return request.resolve(message.result);
      }
      const detail = (message.error as { data?: { retryAfter?: number } } | undefined)?.data;
      request.reject(
        new WsApiError(
          message.status ?? 0,
          message.error?.code,
          message.error?.msg ?? 'request failed',
          detail?.retryAfter ? Math.max(0, detail.retryAfter - Date.now()) : undefined,
        ),
      );
    });

    socket.on('open', () => {
      opened = true;
      heard();
      resolve({
        get open() {
          return !closed && socket.readyState === WebSocket.OPEN;
        },
        close: () => {
          socket.close(1000);
          // A peer that never answers the close frame must not keep the connection half open.
          setTimeout(() => socket.terminate(), 5000).unref();
        },
        request: (method, params, onResult) =>
          new Promise((resolveRequest, rejectRequest) => {
            if (closed) return rejectRequest(new WsApiError(0, undefined, 'connection closed'));
            const id = nextId++;
            const timer = setTimeout(() => {
              pending.delete(id);
              rejectRequest(new WsApiError(0, undefined, `${method}: no answer in ${requestTimeoutMs} ms`));
            }, requestTimeoutMs);
            pending.set(id, {
              resolve: resolveRequest,
              reject: rejectRequest,
              timer,
              ...(onResult ? { onResult } : {}),
            });
            socket.send(JSON.stringify({ id, method, ...(params ? { params } : {}) }));
          }),
      });
    });
  });
