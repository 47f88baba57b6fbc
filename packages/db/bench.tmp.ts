import { createTestDb } from './src/testing';

const times: string[] = [];
for (let i = 0; i < 5; i++) {
  const s = performance.now();
  const db = await createTestDb();
  await db.prisma.user.count();
  const c = performance.now();
  await db.close();
  times.push(`${(c - s).toFixed(0)}ms (+close ${(performance.now() - c).toFixed(0)})`);
}
console.log(process.env.DATABASE_URL ? 'pg' : 'pglite', times.join(', '));
process.exit(0);
