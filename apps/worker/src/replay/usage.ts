// Kept apart from the engine so `--help` answers without loading it (src/replay.ts).
export const USAGE = `Usage: npm run -s replay -- --candles <file.csv|file.json> --order-size <USDT> --step <%>
         --step-increase <%> --max-trades <N> [--fee <%>] [--dry-from <ISO time>] [--json]

Replays a coin's grid over recorded candles (docs/grid.md). CSV needs a header time,open,high,low,close[,volume]
(time in Unix ms or ISO, UTC unless it names a zone); JSON is an array of [time,open,high,low,close,volume] or of objects with those keys.
  --fee        fee per fill in %, charged in quote (default 0.1)
  --dry-from   from the first candle at or after this time (UTC unless a zone is given) the coin only sells
  --json       print one JSON object on stdout (use "npm run -s replay" so npm adds no banner)`;
