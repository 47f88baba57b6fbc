import { runCli } from './run-cli';
import { runWalletCli } from './wallet-commands';

/**
 * The operator's wallet CLI: `npm run wallet -- withdrawals list|approve <id>|reject <id> --reason
 * "…"` (built: `node apps/api/dist/cli/wallet.js …`). Decisions enqueue nothing: the watcher picks
 * approved withdrawals up on its own.
 */
await runCli('wallet-cli', runWalletCli);
