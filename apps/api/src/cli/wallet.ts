import { userInfo } from 'node:os';
import { loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createInProcessQueue } from '@gridbot/jobs';
import { createLogger } from '@gridbot/runtime';
import { openServiceContext } from '@gridbot/services';
import { runWalletCli } from './wallet-commands';

/**
 * The operator's wallet CLI: `npm run wallet -- withdrawals list|approve <id>|reject <id> --reason
 * "…"` (built: `node apps/api/dist/cli/wallet.js …`). Same environment as the API (DATABASE_URL,
 * or the embedded database when the demo is not running: PGlite opens in one process at a time).
 */
const env = loadEnv(process.env, { require: [] });
const db = await createDb(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
);
const { ctx, close } = openServiceContext({
  env,
  prisma: db.prisma,
  log: createLogger({ ...env, LOG_LEVEL: 'warn' }, 'wallet-cli'),
  // Decisions enqueue nothing: the watcher picks approved withdrawals up on its own.
  queue: createInProcessQueue(),
  role: 'wallet-cli',
});
let code = 1;
try {
  code = await runWalletCli(
    ctx,
    process.argv.slice(2),
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    userInfo().username,
  );
} finally {
  await close();
  await db.close();
}
process.exit(code);
