import { ConfigError, loadEnv } from '@gridbot/config';

/** The watcher process (distributed mode). Its jobs arrive with their issue; until then it idles. */
const main = () => {
  const env = loadEnv();
  console.log(`watcher: started (${env.REDIS_URL ? 'Redis' : 'in-process'} mode); nothing to run yet`);
  const keepAlive = setInterval(() => undefined, 60_000);
  const stop = () => {
    clearInterval(keepAlive);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

try {
  main();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
