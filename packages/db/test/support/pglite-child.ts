// A process that opens an embedded database the way the app does (createDb with a folder) and
// writes to it, for the lock and crash tests. Talks in JSON lines on stdout:
//   {"event":"open","pid":…,"entries":n,"total":n,"ids":[…]}  then {"event":"committed","id":…} per write
//   {"event":"error","code":…,"message":…} when createDb refuses (exit code 2)
// Usage: pglite-child.ts <folder> <writes: number | "forever">. After its writes it waits for stdin
// to close, then closes the database and exits 0.
import { createDb } from '../../src/index';

const [dir, writes = '0'] = process.argv.slice(2);
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const main = async () => {
  let db: Awaited<ReturnType<typeof createDb>>;
  try {
    db = await createDb({ pgliteDir: dir });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    say({ event: 'error', code: code ?? 'OTHER', message: String(message) });
    process.exit(2);
  }
  const { prisma } = db;
  await prisma.$executeRawUnsafe(
    'CREATE TABLE IF NOT EXISTS entries (id serial PRIMARY KEY, payload text NOT NULL)',
  );
  await prisma.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS totals (id int PRIMARY KEY, n int NOT NULL)');
  await prisma.$executeRawUnsafe('INSERT INTO totals VALUES (1, 0) ON CONFLICT DO NOTHING');
  const ids = (await prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM entries ORDER BY id')).map(
    (r) => r.id,
  );
  const [totals] = await prisma.$queryRawUnsafe<{ n: number }[]>('SELECT n FROM totals WHERE id = 1');
  say({ event: 'open', pid: process.pid, entries: ids.length, total: totals?.n, ids });

  const count = writes === 'forever' ? Number.POSITIVE_INFINITY : Number(writes);
  for (let i = 0; i < count; i += 1) {
    // Two statements in one transaction: after a crash, totals.n must equal the number of entries.
    const [rows] = await prisma.$transaction([
      prisma.$queryRawUnsafe<{ id: number }[]>(
        "INSERT INTO entries (payload) VALUES (repeat('x', 4000)) RETURNING id",
      ),
      prisma.$executeRawUnsafe('UPDATE totals SET n = n + 1 WHERE id = 1'),
    ]);
    say({ event: 'committed', id: rows[0]?.id });
  }
  say({ event: 'idle' });
  process.stdin.resume();
  process.stdin.on('end', () => {
    void db.close().then(() => process.exit(0));
  });
};

void main();
