import { createTestDb } from '@gridbot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOperatorAlert } from '../src/operators/queue-operator-alert';

let db: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

describe('operator alerts outbox', () => {
  const alert = {
    kind: 'withdrawal_pending' as const,
    data: {
      withdrawalId: 7,
      uid: 100001,
      username: 'u',
      amount: '12000000',
      toAddress: 'T1',
      reason: 'over',
    },
    dedupeKey: 'withdrawal_pending:7',
  };

  it('queues one row per dedupe key, inside the caller transaction', async () => {
    expect(await queueOperatorAlert(db.prisma, alert)).toBe(true);
    expect(await queueOperatorAlert(db.prisma, alert)).toBe(false);
    await db.prisma
      .$transaction(async (tx) => {
        await queueOperatorAlert(tx, { ...alert, dedupeKey: 'withdrawal_pending:8' });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const rows = await db.prisma.operatorAlert.findMany();
    expect(rows.map((row) => [row.kind, row.dedupeKey, row.status])).toEqual([
      ['withdrawal_pending', 'withdrawal_pending:7', 'pending'],
    ]);
  });

  it('refuses data that does not fit its kind, and a status outside the delivery states', async () => {
    await expect(
      queueOperatorAlert(db.prisma, { ...alert, dedupeKey: 'x', data: { ...alert.data, amount: '1.5' } }),
    ).rejects.toThrow();
    await expect(
      db.prisma.operatorAlert.updateMany({ where: {}, data: { status: 'whatever' } }),
    ).rejects.toThrow();
  });
});
