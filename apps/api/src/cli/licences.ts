import { runLicencesCli } from './licences-commands';
import { runCli } from './run-cli';

/**
 * The operator's licence ladder CLI: `npm run licences -- list|set <LEVEL> --price …|grant <uid>
 * <LEVEL>` (built: `node apps/api/dist/cli/licences.js …`; docs/licences.md#operator-cli). Ladder
 * changes enqueue nothing: the engine reads the licence with every reconcile.
 */
await runCli('licences-cli', runLicencesCli);
