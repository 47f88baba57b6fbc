import { fromMicro } from '@gridbot/ledger';
import type { OperatorAlertData, OperatorAlertKind } from './operator-alert-kinds';

/**
 * The operators' chat texts (English only, docs/operations.md#operators-chat). Amounts arrive in
 * micro-USDT and are converted exactly.
 */
type Texts = { [K in OperatorAlertKind]: (data: OperatorAlertData<K>) => string };

const texts: Texts = {
  withdrawal_pending: (d) =>
    [
      `💸 Withdrawal #${d.withdrawalId} waits for a decision`,
      `User: UID ${d.uid} @${d.username}`,
      `Amount: ${fromMicro(BigInt(d.amount))} USDT (network fee included)`,
      `To: ${d.toAddress}`,
      `Why: ${d.reason}`,
    ].join('\n'),
  hot_wallet_low: (d) =>
    `⚠️ Hot wallet low on ${d.asset}: ${fromMicro(BigInt(d.balance))} ${d.asset} left ` +
    `(alert below ${fromMicro(BigInt(d.minimum))}). Top up ${d.address}.`,
  withdrawals_waiting: (d) =>
    `⏳ ${d.count} withdrawal(s) (${fromMicro(BigInt(d.amount))} USDT) wait: ${WAITING_TEXT[d.reason]}. ` +
    `Hot wallet ${d.address}; they go out by themselves once it can pay.`,
  venue_budget_high: (d) =>
    `📈 ${d.venue} request budget of IP ${d.ip} at ${Math.round((100 * d.used) / d.limit)} % ` +
    `(${d.pool} ${d.used}/${d.limit} this window). Scans and sweeps pause above 60 %, buys above 85 %; ` +
    'add an egress IP (a worker on another host) if this repeats.',
  venue_blocked: (d) =>
    `⛔ ${d.venue} ${d.status === 418 ? 'banned' : 'throttled'} IP ${d.ip} (HTTP ${d.status}) until ` +
    `${new Date(d.until).toISOString().slice(0, 19).replace('T', ' ')} UTC. Nothing is sent from it until then; ` +
    'its coin bots resume by themselves.',
};

const WAITING_TEXT: Record<OperatorAlertData<'withdrawals_waiting'>['reason'], string> = {
  hot_wallet_usdt: 'the hot wallet holds too little USDT',
  hot_wallet_trx: 'the hot wallet holds too little TRX for the network fee',
  fee_above_max: 'the network fee is above TRON_FEE_LIMIT_MAX_TRX',
};

export const operatorAlertText = <K extends OperatorAlertKind>(kind: K, data: OperatorAlertData<K>): string =>
  (texts[kind] as (d: OperatorAlertData<K>) => string)(data);

/** The reasons an operator picks from when rejecting in the chat (the user is told the reason). */
export const REJECT_REASONS = [
  'suspicious activity on the account',
  'the address could not be verified',
  'requested by the account owner',
] as const;

/** An instant as the operators' chat writes it. */
export const chatTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The line added under a decided withdrawal's message (its buttons are removed). */
export const decisionLine = (input: {
  status: string;
  decidedBy: string | null;
  at: Date;
  reason?: string | null;
}): string => {
  const who = input.decidedBy ?? 'unknown';
  if (input.status === 'approved' || input.status === 'broadcast' || input.status === 'confirmed') {
    return `✅ Approved by ${who} at ${chatTime(input.at)}`;
  }
  if (input.status === 'rejected') {
    return `❌ Rejected by ${who} at ${chatTime(input.at)}${input.reason ? `: ${input.reason}` : ''}`;
  }
  return `Status: ${input.status}`;
};
