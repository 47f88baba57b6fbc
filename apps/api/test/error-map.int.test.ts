import { type ErrorCode, errorCatalogue } from '@gridbot/contracts';
import { GRID_ERROR_CATALOGUE, GridError, type GridErrorCode } from '@gridbot/domain';
import { EXCHANGE_ERROR_CODES, ExchangeError } from '@gridbot/exchange';
import { LEDGER_ERROR_CATALOGUE, LedgerError, type LedgerErrorCode } from '@gridbot/ledger';
import { AppError } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Every typed error of every package, thrown from a handler, reaches the user as its catalogue
 * entry: the right status (never a 500), the spec's message and a detail in the user's language.
 */
const thrown: Record<string, () => Error> = {};
const add = (name: string, make: () => Error) => {
  thrown[name] = make;
};
for (const code of Object.keys(errorCatalogue) as ErrorCode[]) {
  if (code !== 'INTERNAL') add(`services:${code}`, () => new AppError(code));
}
for (const code of Object.keys(LEDGER_ERROR_CATALOGUE) as LedgerErrorCode[]) {
  add(`ledger:${code}`, () => new LedgerError(code, `ledger refused: ${code}`));
}
for (const code of EXCHANGE_ERROR_CODES) {
  add(`exchange:${code}`, () => new ExchangeError(code, `binance {"code":-2010,"msg":"${code}"}`));
}
for (const code of Object.keys(GRID_ERROR_CATALOGUE) as GridErrorCode[]) {
  add(
    `domain:${code}`,
    () => new GridError(code, `grid: ${code}`, code.includes('STEP') ? 'stepPct' : undefined),
  );
}

const expectedCode = (name: string, error: Error): ErrorCode =>
  (error as unknown as { catalogueCode: ErrorCode }).catalogueCode ?? name;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      routes: (app) =>
        // Three answers per catalogue code: more than the per-IP limit of a minute, which this test
        // route is not about.
        app.get<{ Params: { name: string } }>(
          '/__throw/:name',
          { config: { rateLimit: false } },
          async (request) => {
            throw thrown[request.params.name]!();
          },
        ),
    },
  );
});
afterAll(() => t.close());

describe('one error map for every package', () => {
  it.each(Object.keys(thrown))('%s becomes its catalogue answer, never a 500', async (name) => {
    const error = thrown[name]!();
    const code = expectedCode(name, error);
    const entry = errorCatalogue[code];
    for (const [language, header] of [
      ['en', 'en-US'],
      ['ru', 'ru-RU'],
      ['cn', 'zh-CN'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/__throw/${encodeURIComponent(name)}`,
        headers: { 'accept-language': header },
      });
      expect(res.statusCode).not.toBe(500);
      expect(res.statusCode).toBe(entry.status);
      const body = res.json();
      expect(body).toMatchObject({ error: true, status: entry.status, code, message: entry.message });
      expect(body.detail.startsWith(entry.detail[language])).toBe(true);
    }
  });

  it('an untyped failure is the one 500, with the spec message and no internals', async () => {
    thrown.bug = () => new TypeError('Cannot read properties of undefined (reading "x")');
    const res = await t.app.inject({ method: 'GET', url: '/__throw/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'INTERNAL', message: errorCatalogue.INTERNAL.message });
    expect(res.body).not.toContain('Cannot read');
  });
});
