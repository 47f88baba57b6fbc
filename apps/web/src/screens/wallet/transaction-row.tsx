import type { Transaction, TransactionStatus } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { Badge, type BadgeTone } from '../../ui/badge';
import { ArrowDownIcon, ArrowUpIcon } from '../../ui/icons';
import { IconAvatar, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';

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

export const TransactionRow = ({ transaction }: { transaction: Transaction }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const incoming = signOf(transaction.amount) !== 'negative';
  const settled = transaction.status === 'confirmed' || transaction.status === 'credited';
  const who = transaction.counterparty
    ? ` · ${transaction.counterparty.username ? `@${transaction.counterparty.username}` : t('common.uidValue', { uid: transaction.counterparty.uid })}`
    : '';
  return (
    <Row
      start={<IconAvatar>{incoming ? <ArrowDownIcon /> : <ArrowUpIcon />}</IconAvatar>}
      title={t(`wallet.types.${transaction.type}`)}
      subtitle={
        <>
          {format.dateTime(transaction.createdAt)}
          {who}
          {transaction.note ? ` · ${transaction.note}` : ''}{' '}
          {settled ? null : <StatusBadge status={transaction.status} />}
        </>
      }
      end={<Usdt value={transaction.amount} signed unit={false} />}
    />
  );
};
