import type { Transaction } from '@gridbot/contracts';
import { maskUsername } from '@gridbot/domain';
import {
  ensureUserAccounts,
  isLedgerError,
  type TransferInput,
  type TransferResult,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { moveKey } from './wallet-settings';
import { bookedLine } from './wallet-transactions';
import { balancesView, readBalances } from './wallet-views';

export type Recipient = { id: number; uid: number; username: string | null };

type RecipientRow = {
  id: number | null;
  uid: number | null;
  username: string | null;
  fee: bigint | null;
  held: bigint | null;
};

/**
 * The user a transfer goes to, by UID (docs/wallet.md#internal-transfer): yourself is
 * TRANSFER_TO_SELF, a UID nobody has is TRANSFER_RECIPIENT_MISSING. The same statement reads the
 * sender's fee balance and held amount, which a transfer does not change, for the answer: a
 * transfer costs two statements, this one and the ledger's.
 */
const recipientOf = async (
  ctx: ServiceContext,
  input: { userId: number; uid: number },
): Promise<{ recipient: Recipient; fee: bigint; held: bigint }> => {
  const [row] = await ctx.prisma.$queryRawUnsafe<RecipientRow[]>(
    `SELECT u.id, u.uid, u.username,
            (SELECT balance FROM ledger_accounts WHERE user_id = $1 AND sub_balance = 'fee') AS fee,
            (SELECT sum(amount)::bigint FROM withdrawals
              WHERE user_id = $1 AND status IN ('pending', 'approved', 'broadcast')) AS held
       FROM (SELECT 1) one LEFT JOIN users u ON u.uid = $2`,
    input.userId,
    input.uid,
  );
  if (row?.id === input.userId) throw new AppError('TRANSFER_TO_SELF');
  if (!row?.id || row.uid === null) throw new AppError('TRANSFER_RECIPIENT_MISSING');
  return {
    recipient: { id: row.id, uid: row.uid, username: row.username || null },
    fee: BigInt(row.fee ?? 0),
    held: BigInt(row.held ?? 0),
  };
};

/** The recipient as the sender sees it: the UID and the username masked (docs/wallet.md#internal-transfer). */
export type MaskedRecipient = { uid: number; maskedUsername: string | null };

const maskedRecipient = (recipient: Recipient): MaskedRecipient => ({
  uid: recipient.uid,
  maskedUsername: maskUsername(recipient.username),
});

/**
 * The recipient lookup of the transfer screen: confirms the UID before the user does, with the
 * username masked (`de…er`) so that the sequential UIDs cannot be read as a directory of handles.
 */
export const findTransferRecipient = async (
  ctx: ServiceContext,
  input: { userId: number; uid: number },
): Promise<MaskedRecipient> => maskedRecipient((await recipientOf(ctx, input)).recipient);

/**
 * A move paid from `payer`'s main balance, opening the payees' accounts when one was never used (a
 * user who never had money has none yet): the transfer is tried first, and only a missing account
 * costs the extra statements. A payer who cannot afford the move (or has no accounts) is refused
 * INSUFFICIENT_FUNDS before any account is opened, so a refused request leaves the ledger as it was.
 * No interactive transaction: fifty concurrent first transfers to one new recipient would hold
 * fifty pooled connections while they wait on each other's account rows.
 */
export const transferOpeningAccounts = async (
  ctx: ServiceContext,
  parties: { payer: number; payees: readonly number[] },
  input: TransferInput,
): Promise<TransferResult> => {
  try {
    return await transfer(ctx.prisma, input);
  } catch (error) {
    if (!isLedgerError(error, 'ACCOUNT_NOT_FOUND')) throw error;
    const code = userAccountCode(parties.payer, 'main');
    const payer = await ctx.prisma.ledgerAccount.findUnique({ where: { code }, select: { balance: true } });
    const debit = input.legs
      .filter((leg) => leg.account === code && leg.amount < 0n)
      .reduce((sum, leg) => sum - leg.amount, 0n);
    if (!payer || payer.balance < debit) throw new AppError('INSUFFICIENT_FUNDS');
    // Concurrent moves may still spend the balance meanwhile: the ledger then refuses this one, and
    // the payee keeps the empty accounts its first money opens anyway.
    for (const userId of parties.payees) await ensureUserAccounts(ctx.prisma, userId);
    return transfer(ctx.prisma, input);
  }
};

/**
 * Sends `summ` USDT from the user's main balance to another user's main balance: one ledger
 * transfer, so it is atomic, and the ledger refuses it (INSUFFICIENT_FUNDS, nothing written) when
 * main is short, also under any number of concurrent transfers. It is booked once as
 * `transfer_out`; the recipient's list shows their side as `transfer_in`. With an Idempotency-Key
 * the transfer is keyed by it: a retried request sends once and answers the same.
 */
export const sendTransfer = async (
  ctx: ServiceContext,
  input: { userId: number; toUid: number; summ: string; idempotencyKey?: string | undefined },
): Promise<{
  transaction: Transaction;
  recipient: MaskedRecipient;
  balances: ReturnType<typeof balancesView>;
}> => {
  const { recipient, fee, held } = await recipientOf(ctx, { userId: input.userId, uid: input.toUid });
  const amount = toMicro(input.summ);
  const booked = await transferOpeningAccounts(
    ctx,
    { payer: input.userId, payees: [recipient.id] },
    {
      idempotencyKey: moveKey('transfer', input.userId, input.idempotencyKey),
      type: 'transfer_out',
      legs: [
        { account: userAccountCode(input.userId, 'main'), amount: -amount },
        { account: userAccountCode(recipient.id, 'main'), amount },
      ],
    },
  );
  const shown = maskedRecipient(recipient);
  // The sender's own line names the recipient as the lookup did: masked (wallet-transactions.ts).
  const counterparty = { uid: shown.uid, username: shown.maskedUsername };
  const main = booked.entries.find((entry) => entry.account === userAccountCode(input.userId, 'main'));
  // A replayed request's entries carry the balance of its first booking: read the balances now.
  const balances =
    booked.replayed || !main
      ? await readBalances(ctx.prisma, input.userId)
      : { main: main.balanceAfter, fee, held };
  return {
    transaction: bookedLine({
      transferId: booked.id,
      type: 'transfer_out',
      balance: 'main',
      amount: -amount,
      createdAt: booked.createdAt,
      counterparty,
    }),
    recipient: shown,
    balances: balancesView(balances),
  };
};
