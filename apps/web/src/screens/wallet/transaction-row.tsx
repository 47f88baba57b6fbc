import {
  MIN_DEPOSIT_USDT,
  type Transaction,
  type TransactionStatus,
  type TransactionType,
} from '@gridbot/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import type { Messages } from '../../i18n/locales/en';
import { Badge, type BadgeTone } from '../../ui/badge';
import { ArrowDownIcon, ArrowUpIcon, ChevronIcon, PercentIcon, SwapIcon } from '../../ui/icons';
import { KeyValue } from '../../ui/stat';
import { HashValue } from './hash-value';
import {
  amountLookOf,
  type Direction,
  directionOf,
  isSettled,
  shortened,
  tronscanAddressUrl,
  tronscanTransactionUrl,
} from './wallet-model';

const STATUS_TONES: Record<TransactionStatus, BadgeTone> = {
  pending: 'warning',
  approved: 'warning',
  broadcast: 'accent',
  confirmed: 'positive',
  credited: 'positive',
  rejected: 'negative',
  failed: 'negative',
  not_credited: 'negative',
};

export const StatusBadge = ({ status }: { status: TransactionStatus }) => {
  const { t } = useTranslation();
  return <Badge tone={STATUS_TONES[status]}>{t(`wallet.statuses.${status}`)}</Badge>;
};

/**
 * A line's badge: its status, or for a deposit under the minimum (pending or not credited) that it
 * waits for more deposits under the minimum (docs/wallet.md#deposits-under-the-minimum).
 */
const LineBadge = ({ transaction }: { transaction: Transaction }) => {
  const { t } = useTranslation();
  if (transaction.reason !== 'below_minimum') return <StatusBadge status={transaction.status} />;
  return <Badge tone="warning">{t('wallet.belowMinimum')}</Badge>;
};

const DIRECTION_ICONS: Record<Direction, () => ReactNode> = {
  in: () => <ArrowDownIcon />,
  out: () => <ArrowUpIcon />,
  fee: () => <PercentIcon />,
  move: () => <SwapIcon />,
};

export const DirectionIcon = ({ type }: { type: TransactionType }) => {
  const direction = directionOf(type);
  return (
    <span className={`tx-icon tx-icon--${direction}`} aria-hidden="true">
      {DIRECTION_ICONS[direction]()}
    </span>
  );
};

/** What a status means for this kind of money, where the one word is not enough. */
type StatusHint = keyof Messages['wallet']['statusHints'];

const statusHintKey = ({ type, status }: Transaction): StatusHint | null => {
  if (type === 'deposit' && (status === 'pending' || status === 'not_credited')) return `deposit_${status}`;
  const withdrawal = type === 'withdraw' || type === 'withdraw_exchange';
  if (
    withdrawal &&
    (status === 'rejected' || status === 'failed' || status === 'pending' || status === 'broadcast')
  )
    return `withdraw_${status}`;
  return null;
};

/** The other side: a user for transfers and bonuses, the coin for a fee, an address on chain. */
const useSummary = (transaction: Transaction) => {
  const { t } = useTranslation();
  const { counterparty, note, address } = transaction;
  if (transaction.reason === 'below_minimum_combined') return t('wallet.combinedDeposits');
  if (counterparty) {
    return counterparty.username
      ? `@${counterparty.username}`
      : t('common.uidValue', { uid: counterparty.uid });
  }
  if (note) return note;
  if (transaction.type === 'deposit_balance') return t('wallet.mainToFee');
  return address ? shortened(address, 6, 4) : null;
};

const TransactionDetails = ({ transaction, id }: { transaction: Transaction; id: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const hint = statusHintKey(transaction);
  const { counterparty, txid, address, networkFee, note, reason } = transaction;
  return (
    <div id={id} className="tx__details">
      {reason ? (
        <p className="tx__hint">{t(`wallet.reasons.${reason}`, { min: MIN_DEPOSIT_USDT })}</p>
      ) : hint ? (
        <p className="tx__hint">{t(`wallet.statusHints.${hint}`)}</p>
      ) : null}
      <KeyValue label={t('wallet.details.status')} value={<LineBadge transaction={transaction} />} />
      <KeyValue label={t('wallet.details.time')} value={format.dateTime(transaction.createdAt)} />
      <KeyValue label={t('wallet.details.amount')} value={`${format.usdtExact(transaction.amount)} USDT`} />
      <KeyValue
        label={t('wallet.details.balance')}
        value={t(transaction.balance === 'fee' ? 'wallet.fee' : 'wallet.main')}
      />
      {networkFee ? (
        <KeyValue label={t('wallet.details.networkFee')} value={`${format.usdtExact(networkFee)} USDT`} />
      ) : null}
      {counterparty ? (
        <KeyValue
          label={t(
            transaction.type === 'transfer_in'
              ? 'wallet.details.from'
              : transaction.type === 'transfer_out'
                ? 'wallet.details.to'
                : 'wallet.details.partner',
          )}
          value={
            <>
              {counterparty.username ? `@${counterparty.username} · ` : ''}
              {t('common.uidValue', { uid: counterparty.uid })}
            </>
          }
        />
      ) : null}
      {note ? <KeyValue label={t('wallet.details.note')} value={note} /> : null}
      {address ? (
        <KeyValue
          label={t('wallet.details.address')}
          value={
            <HashValue
              value={address}
              href={tronscanAddressUrl(address)}
              label={t('wallet.details.address')}
            />
          }
        />
      ) : null}
      {txid ? (
        <KeyValue
          label={t('wallet.details.txid')}
          value={
            <HashValue value={txid} href={tronscanTransactionUrl(txid)} label={t('wallet.details.txid')} />
          }
        />
      ) : null}
    </div>
  );
};

/**
 * One transaction: type, when, with whom, the signed amount; a tap shows the rest. `day`: the UTC
 * day it is listed under (docs/pnl.md#days-and-times).
 */
export const TransactionRow = ({ transaction, day }: { transaction: Transaction; day?: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const id = useId();
  const summary = useSummary(transaction);
  const look = amountLookOf(transaction);
  return (
    <li className="tx" data-id={transaction.id} data-type={transaction.type} data-status={transaction.status}>
      <button
        type="button"
        className="row tx__summary"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        <DirectionIcon type={transaction.type} />
        <span className="row__body">
          <span className="row__title">{t(`wallet.types.${transaction.type}`)}</span>
          <span className="row__subtitle">
            {day ? format.timeUnder(transaction.createdAt, day) : format.time(transaction.createdAt)}
            {summary ? ' · ' : ''}
            {summary ? <span className="nowrap">{summary}</span> : null}
          </span>
        </span>
        <span className="row__end tx__end">
          <span className={`tx__amount tx__amount--${look}`}>
            {format.usdtExact(transaction.amount, { plus: look === 'credit' || look === 'pending' })}
          </span>
          {isSettled(transaction.status) ? (
            <span className="tx__balance">
              {transaction.balance === 'fee' ? t('wallet.feeShort') : 'USDT'}
            </span>
          ) : (
            <LineBadge transaction={transaction} />
          )}
        </span>
        <ChevronIcon className="tx__chevron" />
      </button>
      {/* Said under the line itself; once open, its details say it. */}
      {transaction.reason === 'below_minimum' && !open ? (
        <p className="tx__reason">{t('wallet.reasons.below_minimum', { min: MIN_DEPOSIT_USDT })}</p>
      ) : null}
      {open ? <TransactionDetails transaction={transaction} id={id} /> : null}
    </li>
  );
};
