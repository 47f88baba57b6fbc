import type { Prisma } from '@gridbot/db';
import { tradeFeeMicro } from '@gridbot/domain';
import { openAccounts, SYSTEM_ACCOUNTS, transfer, userAccountCode } from '@gridbot/ledger';
import type Decimal from 'decimal.js';
import { recordActivity } from '../activity/record-activity';
import { accrueMatchingBonus } from '../bonus/matching-bonus';

type Tx = Prisma.TransactionClient;

export type ClosedLot = {
  coinBotId: number;
  userId: number;
  symbol: string;
  lotId: number;
  seq: number;
  /** The lot's net profit (after both exchange fees). */
  pnl: Decimal;
  at: Date;
};

/** The key of a lot's trading fee: one fee per lot, whoever closes it and however often. */
export const tradeFeeKey = (lotId: number) => `trade_fee:lot:${lotId}`;

/**
 * Charges the platform's trading fee on a closed lot (docs/fees.md#trading-fee): 20 % of its
 * positive net profit from the user's fee balance to the system fees account, as one `trade_fee`
 * ledger transfer keyed by the lot. Runs in the transaction that closes the lot, so the lot is never
 * closed without its fee, nor charged twice (the lot closes once, and the key is unique). The fee is
 * booked in full even when it takes the fee balance below zero; when this fee is the one that takes
 * it to zero or below, the user's bots go dry (the engine reads the balance) and the user is told:
 * an activity entry on every running coin and one queued notification.
 * Returns the fee in micro-USDT (0n: nothing charged).
 */
export const chargeTradeFee = async (tx: Tx, lot: ClosedLot): Promise<bigint> => {
  const fee = tradeFeeMicro(lot.pnl);
  if (fee === 0n) return 0n;
  const feeAccount = userAccountCode(lot.userId, 'fee');
  await openAccounts(tx, [feeAccount, SYSTEM_ACCOUNTS.fees]);
  const coin = lot.symbol.split('/')[0] ?? lot.symbol;
  const charged = await transfer(tx, {
    idempotencyKey: tradeFeeKey(lot.lotId),
    type: 'trade_fee',
    memo: {
      coin,
      symbol: lot.symbol,
      coinBotId: lot.coinBotId,
      lotId: lot.lotId,
      seq: lot.seq,
      pnl: lot.pnl.toString(),
    },
    legs: [
      { account: feeAccount, amount: -fee },
      { account: SYSTEM_ACCOUNTS.fees, amount: fee },
    ],
  });
  await accrueMatchingBonus(tx, { feeTransferId: charged.id, partnerId: lot.userId, fee, at: lot.at });
  if (charged.replayed) return fee;
  await tx.lot.update({ where: { id: lot.lotId }, data: { tradeFee: fee } });
  await tx.coinBot.update({ where: { id: lot.coinBotId }, data: { tradeFees: { increment: fee } } });
  const after = charged.entries.find((entry) => entry.account === feeAccount)?.balanceAfter ?? 0n;
  if (after <= 0n && after + fee > 0n) await feeBalanceEmptied(tx, lot, charged.id, after);
  return fee;
};

/** The fee balance has just reached zero or below: log it on every running coin and queue a message. */
const feeBalanceEmptied = async (tx: Tx, lot: ClosedLot, transferId: bigint, balance: bigint) => {
  const running = await tx.coinBot.findMany({
    where: { userId: lot.userId, running: true, deletedAt: null },
    select: { id: true },
  });
  const data = {
    reason: 'fee_balance_empty',
    feeBalanceMicro: balance.toString(),
    transferId: transferId.toString(),
  };
  await recordActivity(
    tx,
    running.map((bot) => ({
      coinBotId: bot.id,
      userId: lot.userId,
      kind: 'dry_on' as const,
      actor: 'fee_balance' as const,
      data,
      at: lot.at,
      dedupeKey: `fee_balance_empty:${transferId}`,
    })),
  );
  await tx.notification.createMany({
    data: [
      { userId: lot.userId, kind: 'fee_balance_empty', data, dedupeKey: `fee_balance_empty:${transferId}` },
    ],
    skipDuplicates: true,
  });
};
