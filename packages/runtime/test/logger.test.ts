import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/logger';

describe('logs', () => {
  it('redact bearer tokens, cookies, initData and exchange secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const options = loggerOptions('info') as { level: string; redact: { paths: string[]; censor: string } };
    const log = pino(options, sink);
    log.info({
      req: { headers: { authorization: 'Bearer eyJsecret', cookie: 'token=eyJsecret' } },
      body: { _auth: 'user=%7B…&hash=abc', initData: 'hash=abc' },
      account: { apiKey: 'visible-key', secret: 'sk-live-secret' },
      session: { token: 'eyJsecret' },
    });
    const text = lines.join('');
    for (const secret of ['eyJsecret', 'hash=abc', 'sk-live-secret']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});
