import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server in front of an outside service (the sandbox exchange, a TRON node, the Bot API) that
 * passes requests through, or refuses them the worst way for our logs: 500, 401 and 429 in turn,
 * with a body echoing what it received — the method, the URL (a Bot API URL carries the bot token)
 * and every header (API keys) — as misconfigured gateways and some error pages do. The body is
 * shaped like the Bot API's errors (`ok`, `error_code`, `description`), which the exchange and TRON
 * clients report as an unreadable answer.
 */
export type RefusingFront = {
  url: string;
  /** `pass`: forward to the target; `refuse`: answer every request with a refusal. */
  mode: 'pass' | 'refuse';
  /** Refusals answered so far, by status. */
  refused: Map<number, number>;
  close: () => Promise<void>;
};

/** Each refusal's body starts with this, so a test can find the echo in a log line. */
export const REFUSAL_MARK = 'front refused';
const STATUSES = [500, 401, 429];

export const startRefusingFront = async (
  options: {
    target?: string;
    mode?: RefusingFront['mode'];
    /** The statuses refusals answer with, in turn (default 500, 401, 429). */
    statuses?: number[];
  } = {},
): Promise<RefusingFront> => {
  let turn = 0;
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    const statuses = options.statuses ?? STATUSES;
    const status = statuses[turn % statuses.length] as number;
    turn += 1;
    front.refused.set(status, (front.refused.get(status) ?? 0) + 1);
    const description = `${REFUSAL_MARK} ${req.method} ${req.url} ${JSON.stringify(req.headers)}`;
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 429 ? { 'retry-after': '1' } : {}),
    });
    res.end(JSON.stringify({ ok: false, error_code: status, description }));
  };
  const pass = (req: IncomingMessage, res: ServerResponse, target: URL) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    if (front.mode === 'pass' && options.target) pass(req, res, new URL(options.target));
    else refuse(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: RefusingFront = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mode: options.mode ?? (options.target ? 'pass' : 'refuse'),
    refused: new Map(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return front;
};
