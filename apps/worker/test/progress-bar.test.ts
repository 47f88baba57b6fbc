import { describe, expect, it } from 'vitest';
import { createProgressBar } from '../src/replay/progress-bar';
import { runReplayCli } from '../src/replay/run-replay-cli';

describe('replay progress bar', () => {
  it('redraws only when the whole percent changes, and clears its line when done', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 'reading');
    for (const fraction of [0, 0.001, 0.5, 0.504, 1]) bar.update(fraction);
    bar.done();
    expect(writes).toEqual([
      `\rreading [${'.'.repeat(30)}]   0 %`,
      `\rreading [${'#'.repeat(15)}${'.'.repeat(15)}]  50 %`,
      `\rreading [${'#'.repeat(30)}] 100 %`,
      '\r\x1b[2K',
    ]);
  });

  it('stays off for short inputs even on a terminal', () => {
    let stderr = '';
    const file = new URL('../../../data/candles/XRP-USDT-1h.csv', import.meta.url).pathname;
    const args = [
      '--candles',
      file,
      '--order-size',
      '10',
      '--step',
      '1',
      '--step-increase',
      '0',
      '--max-trades',
      '3',
    ];
    const code = runReplayCli(args, {
      stdout: () => undefined,
      stderr: (t) => (stderr += t),
      stderrIsTty: true,
    });
    expect([code, stderr]).toEqual([0, '']);
  });
});
