// The API as a benchmark's child process (one Node event loop: "one core"): the real app on the
// given PostgreSQL database, sign-in keys from the parent's JWT secret, quiet logs, plus the floor
// route `GET /bench/bare` ({ok:true}, no rate limit). Sends `{ port }` to the parent when listening.
import { randomBytes } from 'node:crypto';

export const serveBenchApi = async (databaseUrl: string, jwtSecret: string, poolMax = 10): Promise<void> => {
  const { buildApp } = await import('../../../apps/api/src/app');
  const { createDb } = await import('@gridbot/db');
  const { loadEnv } = await import('@gridbot/config');
  const { createInProcessQueue } = await import('@gridbot/jobs');
  const { createLogger } = await import('@gridbot/runtime');
  const { createExchangeClients, createSecretBox, createServiceContext, sessionKeys } = await import(
    '@gridbot/services'
  );
  const { silentLogger } = await import('@gridbot/services/testing');
  const db = await createDb({ databaseUrl, poolMax });
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const secretBox = createSecretBox([randomBytes(32)]);
  const ctx = createServiceContext({
    prisma: db.prisma,
    env,
    log: silentLogger,
    queue: createInProcessQueue(() => {}),
    exchanges: createExchangeClients({ prisma: db.prisma, secretBox }),
    secrets: secretBox,
    auth: {
      botToken: `1:${randomBytes(24).toString('base64url')}`,
      ...sessionKeys(jwtSecret),
    },
  });
  const app = await buildApp({ ctx, logger: createLogger(env, 'bench'), publicUrl: 'http://localhost' });
  app.get('/bench/bare', { config: { rateLimit: false } }, async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  // A clean exit on kill, so --cpu-prof writes its profile.
  process.on('SIGTERM', () => process.exit(0));
};
