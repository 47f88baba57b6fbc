import { runOpsCli } from './ops-commands';
import { runCli } from './run-cli';

/**
 * The operator's system CLI: `npm run -s ops -- summary [--json]` (built: `node
 * apps/api/dist/cli/ops.js summary`; docs/operations.md#operator-cli). Reads only; with REDIS_URL
 * it reads the shared queues' depth too.
 */
await runCli('ops-cli', runOpsCli, { sharedQueue: true });
