import { ConfigError, loadEnv } from '@gridbot/config';
import Fastify from 'fastify';

/** Local stand-ins for the outside world (exchange, TRON node). Their protocols arrive with issue 4. */
const main = async () => {
  const env = loadEnv();
  const app = Fastify({ logger: { level: env.LOG_LEVEL } });
  app.get('/health', async () => ({ ok: true, services: [] as string[] }));
  const port = Number(process.env.SANDBOX_PORT ?? 3100);
  await app.listen({ host: '127.0.0.1', port });
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
