import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createTestDb, type TestDb } from '@gridbot/db/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createDb, type Db, findMigrationsDir, migrationStatus, Prisma } from '../src/index';

const DATABASE_URL = process.env.DATABASE_URL;
const migrationsDir = findMigrationsDir();
const migrationFolders = async () =>
  (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

const opened: Db[] = [];
const createPglite = async () => {
  const db = await createDb({ pgliteDir: 'memory' });
  opened.push(db);
  return db;
};
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
});

/** deploy, then status, on an empty database: the path the API's embedded start takes. */
const expectDeployOnEmptyDatabase = async (db: Db) => {
  const before = await migrationStatus(db, { migrationsDir });
  expect(before.upToDate).toBe(false);
  expect(before.pendingMigrationNames).toEqual(before.migrationNames);

  const { appliedMigrationNames } = await applyMigrations(db, { migrationsDir });
  expect(appliedMigrationNames).toEqual(before.migrationNames);
  expect(appliedMigrationNames[0]).toMatch(/^\d{14}_init$/);

  const after = await migrationStatus(db, { migrationsDir });
  expect(after).toMatchObject({
    upToDate: true,
    pendingMigrationNames: [],
    failedMigrationNames: [],
    history: null,
  });
  // A second deploy (every API start) is a no-op.
  expect((await applyMigrations(db, { migrationsDir })).appliedMigrationNames).toEqual([]);

  const rows = await db.prisma.$queryRaw<{ migration_name: string; finished: boolean }[]>`
    SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name`;
  expect(rows).toEqual(appliedMigrationNames.map((migration_name) => ({ migration_name, finished: true })));
};

describe('migrations', () => {
  it('deploy applies every migration on PGlite, then status reports nothing pending', async () => {
    await expectDeployOnEmptyDatabase(await createPglite());
  });

  it.skipIf(!DATABASE_URL)(
    'deploy applies every migration on PostgreSQL, then status reports nothing pending',
    async () => {
      const url = new URL(DATABASE_URL as string);
      const name = `gridbot_test_${Date.now().toString(36)}_deploy_${randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      url.pathname = `/${name}`;
      const db = await createDb({ databaseUrl: url.toString() });
      try {
        expect(db.kind).toBe('postgres');
        await expectDeployOnEmptyDatabase(db);
      } finally {
        await db.close();
        await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
        await admin.end();
      }
    },
  );

  it('createTestDb returns a migrated database', async () => {
    const db = await createTestDb();
    try {
      expect(db.kind).toBe(DATABASE_URL ? 'postgres' : 'pglite');
      expect(db.url === undefined).toBe(!DATABASE_URL);
      const status = await migrationStatus(db, { migrationsDir });
      expect(status.upToDate).toBe(true);
      expect(status.migrationNames).toEqual(await migrationFolders());
    } finally {
      await db.close();
    }
  });
});

describe(`users on ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.close();
  });

  let seq = 0;
  const userData = (overrides: Partial<Prisma.UserUncheckedCreateInput> = {}) => {
    seq += 1;
    return {
      telegramId: 7_000_000_000n + BigInt(seq),
      username: `User${seq}`,
      usernameKey: `user${seq}`,
      firstName: `First${seq}`,
      referralCode: `ref${seq}${randomBytes(2).toString('hex')}`,
      ...overrides,
    };
  };

  it('round-trips a user and its config rows', async () => {
    const created = await db.prisma.user.create({
      data: {
        ...userData({ lastName: 'Last', languageCode: 'en', isRoot: true }),
        configs: { create: [{ name: 'theme', value: 'dark' }] },
      },
    });
    await db.prisma.userConfig.upsert({
      where: { userId_name: { userId: created.id, name: 'lang' } },
      create: { userId: created.id, name: 'lang', value: 'ru' },
      update: { value: 'ru' },
    });

    const read = await db.prisma.user.findUniqueOrThrow({
      where: { telegramId: created.telegramId },
      include: { configs: { orderBy: { name: 'asc' } } },
    });
    expect(read).toMatchObject({
      id: created.id,
      uid: created.uid,
      telegramId: created.telegramId,
      username: created.username,
      lastName: 'Last',
      languageCode: 'en',
      isRoot: true,
      sponsorId: null,
    });
    expect(typeof read.telegramId).toBe('bigint');
    expect(read.createdAt).toBeInstanceOf(Date);
    expect(read.configs.map((c) => [c.name, c.value])).toEqual([
      ['lang', 'ru'],
      ['theme', 'dark'],
    ]);

    // Config rows go with their user (ON DELETE CASCADE).
    await db.prisma.user.delete({ where: { id: created.id } });
    expect(await db.prisma.userConfig.count({ where: { userId: created.id } })).toBe(0);
  });

  it('numbers users from 100001 upwards (uid)', async () => {
    const first = await db.prisma.user.create({ data: userData() });
    const second = await db.prisma.user.create({ data: userData() });
    const min = await db.prisma.user.aggregate({ _min: { uid: true } });
    // The round-trip test may have consumed 100001 already; the sequence starts there either way.
    expect(min._min.uid).toBeGreaterThanOrEqual(100_001);
    expect(first.uid).toBeLessThanOrEqual(100_003);
    expect(second.uid).toBe(first.uid + 1);
    expect(first.id).not.toBe(first.uid);
  });

  it('starts uid at exactly 100001 in a fresh database', async () => {
    const fresh = await createTestDb();
    try {
      const user = await fresh.prisma.user.create({ data: userData() });
      expect(user.uid).toBe(100_001);
    } finally {
      await fresh.close();
    }
  });

  it('rejects a second user with the same usernameKey (case-insensitive usernames)', async () => {
    await db.prisma.user.create({ data: userData({ username: 'Alice', usernameKey: 'alice' }) });
    const duplicate = db.prisma.user.create({ data: userData({ username: 'ALICE', usernameKey: 'alice' }) });
    await expect(duplicate).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    await expect(duplicate).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.prisma.user.findUnique({ where: { usernameKey: 'alice' } })).toMatchObject({
      username: 'Alice',
    });
  });

  it('keeps sponsors with partners (ON DELETE RESTRICT)', async () => {
    const sponsor = await db.prisma.user.create({ data: userData() });
    const partner = await db.prisma.user.create({ data: userData({ sponsorId: sponsor.id }) });
    expect(await db.prisma.user.findMany({ where: { sponsorId: sponsor.id }, select: { id: true } })).toEqual(
      [{ id: partner.id }],
    );
    await expect(db.prisma.user.delete({ where: { id: sponsor.id } })).rejects.toMatchObject({
      code: 'P2003',
    });
  });
});
