// The web benchmark's transport (docs/performance.md#web): Telegram opens mini apps only over HTTPS,
// so an installation sits behind a TLS front speaking HTTP/2 (deploy/Caddyfile). This is one in the
// bench's own process, forwarding to a plain HTTP server, with a throwaway self-signed certificate.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Hop-by-hop headers a proxy does not forward (and HTTP/2 forbids). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'http2-settings',
];

const makeCertificate = (dir: string) => {
  const key = join(dir, 'front.key');
  const cert = join(dir, 'front.crt');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
  if (made.status !== 0) throw new Error('openssl could not make the bench certificate');
  return { key: readFileSync(key), cert: readFileSync(cert) };
};

/**
 * TLS with HTTP/2 (HTTP/1.1 fallback) in front of `target`, every request forwarded as it came,
 * every answer (and its 103 Early Hints) streamed back as it comes. Returns the https URL.
 */
export const startTlsFront = async (target: string, dir: string) => {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const front = http2.createSecureServer(
    { ...makeCertificate(dir), allowHTTP1: true },
    (request, response) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (!name.startsWith(':') && !HOP_BY_HOP.includes(name)) headers[name] = value;
      }
      headers.host = upstream.host;
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers,
          agent,
        },
        (answer) => {
          const out: http.OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!HOP_BY_HOP.includes(name)) out[name] = value;
          }
          response.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(response);
        },
      );
      // 103 Early Hints pass through, as Caddy passes them (docs/performance.md#web).
      forward.on('information', (info) => {
        const link = info.statusCode === 103 ? info.headers.link : undefined;
        if (link) response.writeEarlyHints({ link: String(link).split(/,\s*(?=<)/) });
      });
      forward.on('error', () => response.destroy());
      request.pipe(forward);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(front.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        front.close(() => resolve());
      }),
  };
};
