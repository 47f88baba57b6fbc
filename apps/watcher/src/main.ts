import { loadEnv } from '@gridbot/config';
import { createLogger, runMain } from '@gridbot/runtime';

/** The watcher process (distributed mode). Its jobs arrive with their issue; until then it idles. */
runMain('watcher', async () => {
  const env = loadEnv(process.env, { require: [] });
  const logger = createLogger(env, 'watcher');
  logger.info(`watcher started (${env.REDIS_URL ? 'Redis' : 'in-process'} mode); nothing to run yet`);
  const keepAlive = setInterval(() => undefined, 60_000);
  return { stop: async () => clearInterval(keepAlive) };
});
