import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The fleet's front door: a small round-robin HTTP proxy over the api processes, doing what the
 * compose stack's TLS front does (deploy/Caddyfile) without the TLS: one X-Forwarded-For hop, and
 * a request whose upstream refused the connection goes to the next upstream (Caddy's
 * `lb_try_duration`).
 * Only a refused connection is retried — the request never reached an api, so retrying it cannot
 * apply anything twice; a request cut off mid-answer is the client's to retry (with its
 * Idempotency-Key for money moves).
 */
export type FleetProxy = {
  url: string;
  /** Requests answered per upstream port (how the load spread). */
  answered: Map<number, number>;
  close: () => Promise<void>;
};

const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

export const startFleetProxy = async (upstreams: number[], port = 0): Promise<FleetProxy> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const answered = new Map<number, number>(upstreams.map((p) => [p, 0]));
  let next = 0;

  const forward = (
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
    attempt: number,
  ): void => {
    const upstream = upstreams[(next++ & 0x7fffffff) % upstreams.length]!;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    const client = request.socket.remoteAddress ?? '127.0.0.1';
    headers['x-forwarded-for'] = client;
    headers['x-forwarded-proto'] = 'http';
    headers['content-length'] = String(body.length);
    const outgoing = http.request(
      { host: '127.0.0.1', port: upstream, method: request.method, path: request.url, headers, agent },
      (incoming) => {
        answered.set(upstream, (answered.get(upstream) ?? 0) + 1);
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (!HOP_HEADERS.has(name) && value !== undefined) out[name] = value;
        }
        response.writeHead(incoming.statusCode ?? 502, out);
        incoming.pipe(response);
        incoming.on('error', () => response.destroy());
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && attempt < upstreams.length) {
        forward(request, body, response, attempt + 1);
        return;
      }
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: true,
          status: 502,
          message: 'Bad gateway',
          detail: 'No api process answered.',
        }),
      );
    });
    outgoing.end(body);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, Buffer.concat(chunks), response, 1));
    request.on('error', () => response.destroy());
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    answered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
};
