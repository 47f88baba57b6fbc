import { runOpsCli } from './ops-commands';
import { runCli } from './run-cli';

/**
 * The operator's system CLI: `npm run -s ops -- summary [--json]` (built: `node
 * apps/api/dist/cli/ops.js summary`; docs/operations.md#operator-cli), which reads only (with
 * REDIS_URL the shared queues' depth too), and `users end-sessions|block|unblock <uid>`
 * (docs/operations.md#users).
 */
await runCli('ops-cli', runOpsCli, { sharedQueue: true });
