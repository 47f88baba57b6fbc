import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The API as the internet reaches it through the TLS front (docs/deploy.md#tls): requests that
 * never finish are cut off, /docs is not published unless asked for, and per-IP budgets see each
 * client's own address through the proxy hops.
 */

const HEADERS_MS = 400;
const REQUEST_MS = 800;
/** Node checks the connections every HEADERS_MS / 4 here; the cut comes within this of the timeout. */
const SLACK_MS = 1500;

let timed: TestApp;
let port: number;
let proxied: TestApp;
beforeAll(async () => {
  [timed, proxied] = await Promise.all([
    createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      API_DOCS: '0',
    }),
    // Two hops: the TLS front, then the api replicas' load balancer.
    createTestApp({ TRUST_PROXY_HOPS: '2' }),
  ]);
  await timed.app.listen({ host: '127.0.0.1', port: 0 });
  port = (timed.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([timed?.close(), proxied?.close()]);
});

type Cut = { answer: string; afterMs: number };

/**
 * Opens a raw connection, lets `talk` write to it, and resolves when the server closes it: what it
 * answered and how long after `talk` stopped writing. Fails if the server keeps it open past 5 s.
 */
const cutOff = (talk: (socket: Socket, done: () => void) => void): Promise<Cut> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let lastWrite = Date.now();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open for 5 s'));
    }, 5000);
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, afterMs: Date.now() - lastWrite });
    });
    socket.on('connect', () =>
      talk(socket, () => {
        lastWrite = Date.now();
      }),
    );
  });

describe('requests that never finish', () => {
  it('a sign-in whose declared body never arrives is answered 408 and closed', async () => {
    const started = Date.now();
    const cut = await cutOff((socket, done) => {
      socket.write(
        'POST /auth/login HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"_auth":"us',
      );
      done();
    });
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(REQUEST_MS + SLACK_MS);
  });

  it('headers trickled in a byte at a time (slowloris) are cut off at the headers timeout', async () => {
    const started = Date.now();
    const cut = await cutOff((socket, done) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: api\r\n');
      const drip = setInterval(() => {
        if (socket.destroyed) return clearInterval(drip);
        socket.write('X-Slow: a\r\n');
        done();
      }, 50);
      socket.on('close', () => clearInterval(drip));
    });
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    // Cut while still dripping: the timeout counts from the first byte, not the last.
    expect(Date.now() - started).toBeLessThan(HEADERS_MS + SLACK_MS);
  });

  it('a connection that sends nothing is closed', async () => {
    const started = Date.now();
    await cutOff((_socket, done) => done());
    expect(Date.now() - started).toBeLessThan(HEADERS_MS + SLACK_MS);
  });

  it('a request sent in time is answered as usual', async () => {
    const cut = await cutOff((socket, done) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: api\r\nConnection: close\r\n\r\n');
      done();
    });
    expect(cut.answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('/docs', () => {
  it('is not published with API_DOCS off (the default outside demo mode)', async () => {
    for (const url of ['/docs', '/docs/', '/docs/json']) {
      const res = await timed.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
  });
});

describe('per-IP budgets behind the TLS front and the load balancer (TRUST_PROXY_HOPS=2)', () => {
  /** Sign-in as it reaches an api replica: the balancer's socket, the front's X-Forwarded-For. */
  const signIn = (forwardedFor: string) =>
    proxied.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: {},
      remoteAddress: '172.18.0.5',
      headers: { 'x-forwarded-for': forwardedFor },
    });
  const FRONT = '172.18.0.4';

  it('gives each client its own sign-in budget, and a spoofed left-most entry picks no one else’s', async () => {
    const answers = [];
    for (let i = 0; i < 31; i += 1) answers.push((await signIn(`203.0.113.7, ${FRONT}`)).statusCode);
    expect(answers.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(answers[30]).toBe(429);
    // Another client behind the same front and balancer still signs in.
    expect((await signIn(`198.51.100.23, ${FRONT}`)).statusCode).toBe(400);
    // The first client claiming to be a third one: even a front that keeps a client's own
    // X-Forwarded-For (Caddy replaces it; nginx appends) puts the real address right of it, and
    // that one is counted — still refused, and the third client's budget is untouched.
    expect((await signIn(`192.0.2.99, 203.0.113.7, ${FRONT}`)).statusCode).toBe(429);
    expect((await signIn(`192.0.2.99, ${FRONT}`)).statusCode).toBe(400);
  });
});
