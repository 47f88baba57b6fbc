import { ConfigError, loadEnv } from '@gridbot/config';
import { startApi } from './start';

/** The API as its own process (distributed mode); migrations are a separate deploy step. */
const main = async () => {
  const env = loadEnv();
  const { app } = await startApi({ env, migrate: env.DATABASE_URL === undefined });
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
