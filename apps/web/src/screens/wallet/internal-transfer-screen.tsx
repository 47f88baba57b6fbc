import { getWallet, type ResponseOf, sendInternalTransfer } from '@gridbot/contracts';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useIdempotencyKey } from '../../api/idempotency-key';
import { useActionError, useCatalogueText } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { recipientProblem as checkRecipient, transferAmountProblem } from '../../forms/wallet-forms';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { useSessionUser } from '../../session/use-session-user';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { MainAction } from '../../ui/main-action';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { KeyValue } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { AmountField } from './amount-field';
import { RecipientCard, useRecipient } from './recipient';
import { ResultHeader } from './result-header';
import { usePatchWallet, type Wallet } from './wallet-cache';

type Sent = ResponseOf<typeof sendInternalTransfer> & { amount: string };

const recipientName = (recipient: { uid: number; maskedUsername: string | null }, uidText: string) =>
  recipient.maskedUsername ? `@${recipient.maskedUsername} · ${uidText}` : uidText;

const TransferForm = ({ wallet, onSent }: { wallet: Wallet; onSent: (sent: Sent) => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useSessionUser();
  const errorText = useActionError();
  const catalogueText = useCatalogueText();
  const problemText = useProblemText();
  const patchWallet = usePatchWallet();
  const [recipient, setRecipient] = useState('');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const idempotency = useIdempotencyKey();
  const available = wallet.balances.main;
  const uidProblem = checkRecipient(recipient, user.uid);
  const amountProblem = transferAmountProblem(amount, available);
  const lookup = useRecipient(recipient, uidProblem === null);
  useClosingConfirmation(recipient.trim() !== '' || amount.trim() !== '');
  const send = useApiMutation(sendInternalTransfer, {
    onSuccess: (answer, { query }) => {
      patchWallet({ balances: answer.balances });
      idempotency.renew();
      feedback('success');
      onSent({ ...answer, amount: String(query.summ) });
    },
    onError: () => feedback('error'),
  });
  // Money goes to another user for good: the amount and the recipient are confirmed first.
  const submit = async () => {
    setTouched(true);
    if (uidProblem || amountProblem || lookup.missing) {
      feedback('error');
      return;
    }
    // The name is on screen before the money moves; a lookup still running is waited for.
    if (lookup.looking) return;
    const summ = normalizeDecimal(amount);
    const toUser = recipient.trim();
    const name = lookup.recipient?.maskedUsername;
    const ok = await confirmAction({
      title: t('internal.confirmTitle'),
      message: name
        ? t('internal.confirmNamed', { amount: format.usdtExact(summ), name: `@${name}`, uid: toUser })
        : t('internal.confirm', { amount: format.usdtExact(summ), uid: toUser }),
      confirmText: t('internal.submit'),
    });
    if (ok) send.mutate({ query: { summ, to_user: toUser }, headers: idempotency.headers() });
  };
  const refusedRecipient = isApiError(send.error) && send.error.code === 'TRANSFER_RECIPIENT_MISSING';
  const uidError = touched && uidProblem ? problemText(uidProblem) : null;
  const missingText = lookup.missing || refusedRecipient ? catalogueText('TRANSFER_RECIPIENT_MISSING') : null;
  return (
    <>
      <Card>
        <Field
          label={t('internal.recipient')}
          inputMode="numeric"
          autoComplete="off"
          value={recipient}
          onChange={(value) => {
            setRecipient(value);
            idempotency.renew();
            send.reset();
          }}
          error={uidError ?? missingText}
          hint={t('internal.yourUid', { uid: user.uid })}
        />
        <RecipientCard recipient={lookup.recipient} looking={lookup.looking} error={lookup.error} />
        <AmountField
          label={t('internal.amount')}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            idempotency.renew();
            send.reset();
          }}
          max={available}
          error={touched ? problemText(amountProblem) : null}
          hint={t('wallet.available', { amount: format.usdtExact(available) })}
        />
        <div className="summary">
          <KeyValue label={t('internal.fee')} value={t('internal.free')} />
          <KeyValue label={t('internal.speed')} value={t('internal.instant')} />
        </div>
      </Card>
      {send.isError && !refusedRecipient ? (
        <div data-problem={isApiError(send.error) ? send.error.code : 'unknown'}>
          <Notice tone="warning">{errorText(send.error, 'tryLater')}</Notice>
        </div>
      ) : null}
      <MainAction text={t('internal.submit')} busy={send.isPending} onClick={() => void submit()} />
    </>
  );
};

const TransferResult = ({ sent, onAgain }: { sent: Sent; onAgain: () => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const to = recipientName(sent.recipient, t('common.uidValue', { uid: sent.recipient.uid }));
  return (
    <Card>
      <div data-testid="transfer-result">
        <ResultHeader
          tone="positive"
          title={t('internal.sentTitle')}
          text={t('internal.sentText', { amount: format.usdtExact(sent.amount), to })}
        />
        <KeyValue label={t('internal.recipientLabel')} value={to} />
        <KeyValue label={t('wallet.details.amount')} value={`${format.usdtExact(sent.amount)} USDT`} />
        <KeyValue label={t('wallet.details.time')} value={format.dateTime(sent.transaction.createdAt)} />
        <KeyValue label={t('internal.balanceAfter')} value={`${format.usdtExact(sent.balances.main)} USDT`} />
      </div>
      <MainAction text={t('common.done')} onClick={() => void navigate({ to: '/wallet' })} />
      <Button variant="ghost" block onClick={onAgain}>
        {t('internal.again')}
      </Button>
    </Card>
  );
};

/** Internal transfer of USDT to another user by UID: instant, free, never to yourself. */
export const InternalTransferScreen = () => {
  const { t } = useTranslation();
  const wallet = useApiQuery(getWallet, INITIAL_INPUTS.wallet);
  const [sent, setSent] = useState<Sent | null>(null);
  return (
    <Screen back title={t('internal.title')} subtitle={sent ? undefined : t('internal.hint')}>
      {sent ? (
        <TransferResult sent={sent} onAgain={() => setSent(null)} />
      ) : (
        <QueryView query={wallet} loading={<Skeleton height={220} />} title={t('internal.title')}>
          {(data) => <TransferForm wallet={data} onSent={setSent} />}
        </QueryView>
      )}
    </Screen>
  );
};
