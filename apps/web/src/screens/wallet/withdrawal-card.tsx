import type { Withdrawal } from '@gridbot/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import { CheckIcon, ChevronIcon } from '../../ui/icons';
import { KeyValue } from '../../ui/stat';
import { HashValue } from './hash-value';
import { StatusBadge } from './transaction-row';
import {
  shortened,
  tronscanAddressUrl,
  tronscanTransactionUrl,
  WITHDRAWAL_STEPS,
  withdrawalStepOf,
} from './wallet-model';

/** Requested → approved → sent → confirmed, the current step marked; a refusal ends the line. */
const Steps = ({ withdrawal }: { withdrawal: Withdrawal }) => {
  const { t } = useTranslation();
  const current = withdrawalStepOf(withdrawal.status);
  if (current < 0) return null;
  return (
    <ol className="withdrawal-steps" aria-label={t('withdrawal.progress')}>
      {WITHDRAWAL_STEPS.map((step, index) => {
        const state =
          index < current || withdrawal.status === 'confirmed'
            ? 'done'
            : index === current
              ? 'current'
              : 'todo';
        return (
          <li
            key={step}
            className={`withdrawal-steps__step withdrawal-steps__step--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="withdrawal-steps__dot" aria-hidden="true">
              {state === 'done' ? <CheckIcon /> : null}
            </span>
            <span className="withdrawal-steps__label">{t(`withdrawal.steps.${step}`)}</span>
          </li>
        );
      })}
    </ol>
  );
};

/** Everything about one withdrawal: amounts, where it goes, its transaction on chain. */
export const WithdrawalDetails = ({ withdrawal }: { withdrawal: Withdrawal }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <Steps withdrawal={withdrawal} />
      <p className="tx__hint" data-waiting={withdrawal.waitingReason ?? undefined}>
        {/* docs/wallet.md#network-fees: approved, and waiting until the platform's wallet can pay it. */}
        {withdrawal.waitingReason ? t('withdrawal.waiting') : t(`withdrawal.hints.${withdrawal.status}`)}
      </p>
      {withdrawal.status === 'pending' && withdrawal.reviewReason ? (
        <p className="tx__hint" data-testid="withdrawal-review">
          {t('withdrawal.review')}
        </p>
      ) : null}
      {withdrawal.status === 'approved' &&
      !withdrawal.waitingReason &&
      withdrawal.releaseAt &&
      new Date(withdrawal.releaseAt) > new Date() ? (
        <p className="tx__hint" data-testid="withdrawal-release">
          {t('withdrawal.releaseAt', { at: format.time(withdrawal.releaseAt) })}
        </p>
      ) : null}
      {withdrawal.reason ? <KeyValue label={t('withdrawal.reason')} value={withdrawal.reason} /> : null}
      <KeyValue label={t('withdrawal.amount')} value={`${format.usdtExact(withdrawal.amount)} USDT`} />
      <KeyValue
        label={t('withdrawal.networkFee')}
        value={`${format.usdtExact(withdrawal.networkFee)} USDT`}
      />
      <KeyValue label={t('withdrawal.receives')} value={`${format.usdtExact(withdrawal.receives)} USDT`} />
      <KeyValue
        label={t(withdrawal.type === 'withdraw_exchange' ? 'withdrawal.toExchange' : 'withdrawal.to')}
        value={
          <HashValue
            value={withdrawal.address}
            href={tronscanAddressUrl(withdrawal.address)}
            label={t('withdrawal.to')}
          />
        }
      />
      {withdrawal.txid ? (
        <KeyValue
          label={t('wallet.details.txid')}
          value={
            <HashValue
              value={withdrawal.txid}
              href={tronscanTransactionUrl(withdrawal.txid)}
              label={t('wallet.details.txid')}
            />
          }
        />
      ) : null}
      <KeyValue label={t('withdrawal.requestedAt')} value={format.dateTime(withdrawal.createdAt)} />
    </>
  );
};

/** A withdrawal in the wallet's "on hold" list: the headline, a tap for the details. */
export const WithdrawalRow = ({ withdrawal }: { withdrawal: Withdrawal }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="tx" data-withdrawal={withdrawal.id} data-status={withdrawal.status}>
      <button
        type="button"
        className="row tx__summary"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="row__body">
          <span className="row__title">
            {t(`wallet.types.${withdrawal.type}`)} · {format.usdtExact(withdrawal.amount)} USDT
          </span>
          <span className="row__subtitle">
            {format.dateTime(withdrawal.createdAt)} ·{' '}
            <span className="nowrap">{shortened(withdrawal.address, 6, 4)}</span>
          </span>
        </span>
        <span className="row__end">
          <StatusBadge status={withdrawal.status} />
        </span>
        <ChevronIcon className="tx__chevron" />
      </button>
      {open ? (
        <div id={id} className="tx__details">
          <WithdrawalDetails withdrawal={withdrawal} />
        </div>
      ) : null}
    </li>
  );
};
