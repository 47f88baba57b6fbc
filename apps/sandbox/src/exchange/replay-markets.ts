import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCandleFile } from './price-feed';
import type { SandboxMarketConfig } from './sandbox-exchange';

type ReplayChoice = { file: string; base: string; firstClose?: string; tickSize: string; stepSize: string };

/**
 * Real recorded series (data/candles) turned into USDT markets for the demo: BTC-quoted series are
 * rescaled so their first close sits at a plausible USDT price; XRP/USDT is replayed as recorded.
 */
const CHOICES: ReplayChoice[] = [
  { file: 'ETH-BTC-1m.csv', base: 'ETH', firstClose: '3000', tickSize: '0.01', stepSize: '0.0001' },
  { file: 'LTC-BTC-1m.csv', base: 'LTC', firstClose: '80', tickSize: '0.01', stepSize: '0.001' },
  { file: 'ADA-BTC-1m.csv', base: 'ADA', firstClose: '0.45', tickSize: '0.0001', stepSize: '0.1' },
  { file: 'XRP-USDT-5m.csv', base: 'XRP', tickSize: '0.0001', stepSize: '0.1' },
];

/** Markets replaying the candle files found in `candlesDir` (files that are missing are skipped). */
export const replayMarkets = (candlesDir: string): SandboxMarketConfig[] =>
  CHOICES.filter((c) => existsSync(join(candlesDir, c.file))).map((c) => ({
    base: c.base,
    quote: 'USDT',
    tickSize: c.tickSize,
    stepSize: c.stepSize,
    minNotional: '5',
    feed: { kind: 'candles', candles: loadCandleFile(join(candlesDir, c.file)), firstClose: c.firstClose },
  }));
