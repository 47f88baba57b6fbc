import { binance } from '@gridbot/venues';
import { describe, expect, it } from 'vitest';
import { binanceErrors } from '../src/exchange/binance-error';

// The sandbox answers with Binance's codes; the engine classifies them by the venue table
// (packages/venues/src/binance.ts, docs/venues/binance.md#errors). Where both name a code, they
// agree on its HTTP status, and the engine's table knows every code the sandbox answers an order with.
describe("the sandbox's Binance errors and the venue table", () => {
  const errors = Object.entries(binanceErrors)
    .filter(([, make]) => make.length === 0)
    .map(
      ([name, make]) =>
        [
          name,
          (make as () => InstanceType<typeof Error> & { code: number; msg: string; httpStatus: number })(),
        ] as const,
    );

  it('agree on the HTTP status of every code both name', () => {
    for (const [name, error] of errors) {
      // -1000 UNKNOWN comes with whatever status the failure had; the sandbox's is a path it lacks (404).
      if (name === 'notFound') continue;
      const entry = binance.errors.codes[String(error.code)];
      if (entry) expect(error.httpStatus, name).toBe(entry.status);
    }
  });

  it("classify the sandbox's order refusals by their words as the engine must", () => {
    const outcome = (error: { code: number; msg: string }) => {
      const entry = binance.errors.codes[String(error.code)];
      return entry?.byMessage?.find((rule) => rule.pattern.test(error.msg))?.outcome ?? entry?.outcome;
    };
    expect(outcome(binanceErrors.insufficientBalance())).toBe('insufficient-balance');
    expect(outcome(binanceErrors.duplicateOrder())).toBe('duplicate');
    expect(outcome(binanceErrors.marketClosed())).toBe('market-closed');
    expect(outcome(binanceErrors.unknownOrder())).toBe('not-found');
    expect(outcome(binanceErrors.orderDoesNotExist())).toBe('not-found');
    expect(outcome(binanceErrors.executionUnknown())).toBe('unknown');
    expect(outcome(binanceErrors.timestampOutside())).toBe('clock');
    expect(outcome(binanceErrors.apiKeyRejected())).toBe('key-invalid');
    expect(outcome(binanceErrors.filterFailure('NOTIONAL'))).toBe('below-minimum');
  });
});
