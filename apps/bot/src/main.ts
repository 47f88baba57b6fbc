import { loadEnv } from '@gridbot/config';
import { createLogger, runMain } from '@gridbot/runtime';

/** The bot process (distributed mode). Its jobs arrive with their issue; until then it idles. */
runMain('bot', async () => {
  const env = loadEnv(process.env, { require: ['BOT_TOKEN'] });
  const logger = createLogger(env, 'bot');
  logger.info(`bot started (${env.REDIS_URL ? 'Redis' : 'in-process'} mode); nothing to run yet`);
  const keepAlive = setInterval(() => undefined, 60_000);
  return { stop: async () => clearInterval(keepAlive) };
});
