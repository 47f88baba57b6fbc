import { addWithdrawAddress, sendInternalTransfer, topUpFeeBalance, withdrawMoney } from '@gridbot/contracts';
import { checkAvailable, checkField, type FieldRule, firstProblem, type Problem } from './validation';

/** More than the main balance: the server's own refusal text ('insufficient balance'). */
const checkBalance = (raw: string, available: string | undefined): Problem | null =>
  checkAvailable(raw, available) ? { code: 'INSUFFICIENT_FUNDS' } : null;

/**
 * The wallet forms, each field through the query schema of the contract it is sent to. On top:
 * what only the client knows — the balance on screen and the user's own UID.
 */
const DECIMAL: FieldRule = { decimal: true };

/** Address errors read like the server's (docs/errors.md: 'Withdrawal address format error'). */
const ADDRESS: FieldRule = {
  required: { code: 'WITHDRAW_ADDRESS_MISSING' },
  format: { code: 'WITHDRAW_ADDRESS_FORMAT' },
};

export const withdrawAddressProblem = (raw: string): Problem | null =>
  checkField(addWithdrawAddress.query.shape.address, raw, ADDRESS);

export const withdrawAmountProblem = (raw: string, available: string): Problem | null =>
  firstProblem(checkField(withdrawMoney.query.shape.summ, raw, DECIMAL), checkBalance(raw, available));

export const topUpAmountProblem = (raw: string, available: string): Problem | null =>
  firstProblem(checkField(topUpFeeBalance.query.shape.summ, raw, DECIMAL), checkBalance(raw, available));

export const transferAmountProblem = (raw: string, available: string | undefined): Problem | null =>
  firstProblem(checkField(sendInternalTransfer.query.shape.summ, raw, DECIMAL), checkBalance(raw, available));

/** A UID is read strictly: digits only (docs/wallet.md#internal-transfer). */
const UID: FieldRule = { format: { key: 'uid' } };

export const recipientProblem = (raw: string, ownUid: number): Problem | null =>
  firstProblem(
    checkField(sendInternalTransfer.query.shape.to_user, raw, UID),
    Number(raw.trim()) === ownUid ? { code: 'TRANSFER_TO_SELF' } : null,
  );
