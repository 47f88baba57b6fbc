import type { License } from '@gridbot/contracts';
import type { LicensePurchase, Prisma } from '@gridbot/db';
import { type LicenseQuote, quoteRenewal, quoteUpgrade } from '@gridbot/domain';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import {
  fromMicro,
  isLedgerError,
  openAccounts,
  SYSTEM_ACCOUNTS,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { payReferralBonus } from '../bonus/referral-bonus';
import type { ServiceContext } from '../context/service-context';
import { AppError, isAppError } from '../errors';
import { moveKey } from '../wallet/wallet-settings';
import { balancesView, readBalances } from '../wallet/wallet-views';
import { getUserLicense, licenseLevelRow, licenseStatusOf } from './user-license';

type Tx = Prisma.TransactionClient;

export type LicensePurchaseResult = {
  license: License;
  charged: string;
  transactionId: string;
  balances: ReturnType<typeof balancesView>;
};

type Action = { kind: 'upgrade'; level: string } | { kind: 'renewal' };

/**
 * Whether an earlier purchase under the request's key is this very request (a retry): a renewal
 * for a renewal, the same level for an upgrade. Anything else reused the key with other data.
 */
const isRetryOf = (purchase: LicensePurchase, action: Action): boolean =>
  action.kind === 'renewal'
    ? purchase.kind === 'renewal'
    : purchase.kind !== 'renewal' && purchase.level === action.level;

/** The answer to a key seen before: the earlier purchase when it is this request, else 409. */
const replayOf = (purchase: LicensePurchase, action: Action): LicensePurchase => {
  if (!isRetryOf(purchase, action)) throw new AppError('REQUEST_CONFLICT');
  return purchase;
};

/**
 * Books one licence payment in one database transaction (docs/licences.md#payment): the user's row
 * is locked and the rules checked again on it, so concurrent purchases by one user are serialised
 * and the second one is judged on the first one's result (it cannot pay twice for one step); then
 * the payment (main → system:house, one `license_purchase` transfer keyed by the request), the new
 * level and period, the purchase row and the referral bonus up the sponsor line. A refusal anywhere
 * rolls everything back.
 */
const bookPayment = async (
  tx: Tx,
  input: { userId: number; action: Action; key: string; now: Date },
): Promise<LicensePurchase> => {
  await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1 FOR UPDATE', input.userId);
  // A retried request (same key) that committed while we waited: answer with it, book nothing;
  // the key reused with another level or kind: REQUEST_CONFLICT.
  const earlier = await purchaseByKey(tx, input.key);
  if (earlier) return replayOf(earlier, input.action);
  const user = await tx.user.findUnique({ where: { id: input.userId }, include: { license: true } });
  if (!user) throw new AppError('NO_USER');
  const current = { level: licenseLevelRow(user.license), status: licenseStatusOf(user, input.now) };
  let quote: LicenseQuote;
  if (input.action.kind === 'upgrade') {
    const target = await tx.licenseLevel.findUnique({ where: { code: input.action.level } });
    if (!target) throw new AppError('LICENSE_LEVEL_UNKNOWN');
    const result = quoteUpgrade(current, licenseLevelRow(target), input.now);
    if (!result.ok) throw new AppError(result.code);
    quote = result.quote;
  } else {
    const result = quoteRenewal(current);
    if (!result.ok) throw new AppError(result.code);
    quote = result.quote;
  }
  // Opened here, inside the transaction, so a refused purchase leaves the ledger as it was.
  await openAccounts(tx, [SYSTEM_ACCOUNTS.house]);
  const paid = await transfer(tx, {
    idempotencyKey: input.key,
    type: 'license_purchase',
    memo: { level: quote.level, kind: quote.kind, previousLevel: user.licenseLevel },
    legs: [
      { account: userAccountCode(input.userId, 'main'), amount: -quote.price },
      { account: SYSTEM_ACCOUNTS.house, amount: quote.price },
    ],
  });
  await tx.user.update({
    where: { id: input.userId },
    data: {
      licenseLevel: quote.level,
      licenseActiveFrom: quote.activeFrom,
      licenseActiveUntil: quote.activeUntil,
    },
  });
  const purchase = await tx.licensePurchase.create({
    data: {
      userId: input.userId,
      kind: quote.kind,
      level: quote.level,
      previousLevel: user.licenseLevel,
      amount: quote.price,
      activeFrom: quote.activeFrom,
      activeUntil: quote.activeUntil,
      transferId: paid.id,
      createdAt: input.now,
    },
  });
  await payReferralBonus(tx, {
    purchaseId: purchase.id,
    purchaseTransferId: paid.id,
    payerId: input.userId,
    level: quote.level,
    amount: quote.price,
    at: input.now,
  });
  return purchase;
};

/**
 * The purchase booked under a key before, or null. A key that booked another kind of money move (a
 * transfer, a top-up) is REQUEST_CONFLICT at once: a licence's transfer and its purchase row are
 * written in one transaction, so a transfer without a row is never a licence payment.
 */
const purchaseByKey = async (db: Pick<Tx, 'ledgerTransfer' | 'licensePurchase'>, key: string) => {
  const booked = await db.ledgerTransfer.findUnique({ where: { idempotencyKey: key }, select: { id: true } });
  if (!booked) return null;
  const purchase = await db.licensePurchase.findUnique({ where: { transferId: booked.id } });
  if (!purchase) throw new AppError('REQUEST_CONFLICT');
  return purchase;
};

/**
 * After a payment that turned an expired licence into an active one, the user's running coin bots
 * are reconciled now (the engine lifts the `license_expired` dry), not at the next sweep.
 */
const reconcileAfterPurchase = async (ctx: ServiceContext, userId: number): Promise<void> => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: { userId, running: true, deletedAt: null },
    select: { id: true },
  });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    bots.map((bot) => ({
      payload: { coinBotId: bot.id, reason: 'license_bought' },
      options: { jobId: reconcileJobId(bot.id) },
    })),
  );
};

const payForLicense = async (
  ctx: ServiceContext,
  input: { userId: number; action: Action; idempotencyKey?: string | undefined },
): Promise<LicensePurchaseResult> => {
  const key = moveKey(
    input.action.kind === 'upgrade' ? 'license-upgrade' : 'license-renewal',
    input.userId,
    input.idempotencyKey,
  );
  const now = ctx.clock.now();
  const earlier = await purchaseByKey(ctx.prisma, key);
  let purchase = earlier ? replayOf(earlier, input.action) : null;
  if (!purchase) {
    const before = await getUserLicense(ctx, { userId: input.userId });
    try {
      purchase = await ctx.prisma.$transaction((tx) => bookPayment(tx, { ...input, key, now }));
    } catch (error) {
      if (isAppError(error)) throw error;
      // The key was used for another money move (a transfer, a top-up): nothing was booked.
      if (isLedgerError(error, 'IDEMPOTENCY_CONFLICT')) throw new AppError('REQUEST_CONFLICT');
      // A user who never had money has no main account: nothing to pay with.
      if (isLedgerError(error, 'INSUFFICIENT_FUNDS') || isLedgerError(error, 'ACCOUNT_NOT_FOUND')) {
        throw new AppError('INSUFFICIENT_FUNDS');
      }
      ctx.log.error({ userId: input.userId, action: input.action, err: error }, 'licence payment failed');
      throw new AppError('LICENSE_UPDATE_FAILED');
    }
    ctx.log.info(
      {
        userId: input.userId,
        kind: purchase.kind,
        licence: purchase.level,
        amount: fromMicro(purchase.amount),
      },
      'licence paid',
    );
    if (before.expired) {
      // The money has moved: a queue failure must not turn the answer into an error.
      await reconcileAfterPurchase(ctx, input.userId).catch((error: unknown) =>
        ctx.log.warn({ userId: input.userId, err: error }, 'reconcile after licence payment not queued'),
      );
    }
  }
  return {
    license: await getUserLicense(ctx, { userId: input.userId }),
    charged: fromMicro(purchase.amount),
    transactionId: purchase.transferId.toString(),
    balances: balancesView(await readBalances(ctx.prisma, input.userId)),
  };
};

/**
 * Buys a higher licence level from the main balance (`POST /profile/update_licence`,
 * docs/licences.md#upgrade). With an Idempotency-Key a retried request pays once and answers the
 * same.
 */
export const updateUserLicense = (
  ctx: ServiceContext,
  input: { userId: number; level: string; idempotencyKey?: string | undefined },
): Promise<LicensePurchaseResult> =>
  payForLicense(ctx, {
    userId: input.userId,
    action: { kind: 'upgrade', level: input.level },
    idempotencyKey: input.idempotencyKey,
  });

/** Renews the current paid licence at the renewal price (`POST /profile/renew_license`, docs/licences.md#renewal). */
export const renewUserLicense = (
  ctx: ServiceContext,
  input: { userId: number; idempotencyKey?: string | undefined },
): Promise<LicensePurchaseResult> =>
  payForLicense(ctx, {
    userId: input.userId,
    action: { kind: 'renewal' },
    idempotencyKey: input.idempotencyKey,
  });
