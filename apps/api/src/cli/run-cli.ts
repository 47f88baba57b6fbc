import { userInfo } from 'node:os';
import { loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createBullQueue, createInProcessQueue } from '@gridbot/jobs';
import { createLogger } from '@gridbot/runtime';
import { openServiceContext, type ServiceContext } from '@gridbot/services';

type Output = { out: (line: string) => void; err: (line: string) => void };
type Commands = (
  ctx: ServiceContext,
  argv: readonly string[],
  io: Output,
  operator: string,
) => Promise<number>;

/**
 * Runs one operator CLI (`npm run wallet|licences|ops -- …`) with the API's environment (DATABASE_URL,
 * or the embedded database when the demo is not running: PGlite opens in one process at a time)
 * and exits with its code. The commands enqueue nothing: the workers pick their results up.
 */
export const runCli = async (
  role: string,
  commands: Commands,
  options: {
    /** Open the shared BullMQ queues when REDIS_URL is set (to read them; nothing is processed). */
    sharedQueue?: boolean;
  } = {},
): Promise<never> => {
  const env = loadEnv(process.env, { require: [] });
  const db = await createDb(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
  );
  const queue =
    options.sharedQueue && env.REDIS_URL
      ? createBullQueue({ redisUrl: env.REDIS_URL })
      : createInProcessQueue();
  const { ctx, close } = openServiceContext({
    env,
    prisma: db.prisma,
    log: createLogger({ ...env, LOG_LEVEL: 'warn' }, role),
    queue,
    role,
  });
  let code = 1;
  try {
    code = await commands(
      ctx,
      process.argv.slice(2),
      { out: (line) => console.log(line), err: (line) => console.error(line) },
      userInfo().username,
    );
  } finally {
    await queue.close();
    await close();
    await db.close();
  }
  process.exit(code);
};
