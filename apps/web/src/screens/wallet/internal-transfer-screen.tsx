import { getWallet, sendInternalTransfer } from '@gridbot/contracts';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { recipientProblem as checkRecipient, transferAmountProblem } from '../../forms/wallet-forms';
import { INITIAL_INPUTS } from '../../session/initial-load';
import { useSessionUser } from '../../session/use-session-user';
import { showToast } from '../../shell/toast-store';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { Field } from '../../ui/field';
import { MainAction } from '../../ui/main-action';
import { Card, Screen } from '../../ui/screen';

/** Internal transfer of USDT to another user by UID: instant, free, never to yourself. */
export const InternalTransferScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useSessionUser();
  const navigate = useNavigate();
  const errorText = useActionError();
  const problemText = useProblemText();
  const wallet = useApiQuery(getWallet, INITIAL_INPUTS.wallet);
  const [recipient, setRecipient] = useState('');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const available = wallet.data?.balances.main;
  const recipientProblem = checkRecipient(recipient, user.uid);
  const amountProblem = transferAmountProblem(amount, available);
  useClosingConfirmation(recipient.trim() !== '' || amount.trim() !== '');
  const send = useApiMutation(sendInternalTransfer, {
    onSuccess: () => {
      showToast(t('internal.sent'), 'success');
      void navigate({ to: '/wallet' });
    },
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
  // Money moves to another user for good: the user confirms the amount and the recipient first.
  const submit = async () => {
    setTouched(true);
    if (recipientProblem || amountProblem) return;
    const summ = normalizeDecimal(amount);
    const toUser = Number(recipient.trim());
    const ok = await confirmAction({
      message: t('internal.confirm', { amount: format.usdt(summ), uid: toUser }),
      confirmText: t('internal.submit'),
    });
    if (ok) send.mutate({ query: { summ, to_user: toUser } });
  };
  return (
    <Screen back title={t('internal.title')} subtitle={t('internal.hint')}>
      <Card>
        <Field
          label={t('internal.recipient')}
          inputMode="numeric"
          value={recipient}
          onChange={setRecipient}
          error={touched ? problemText(recipientProblem) : null}
          hint={t('internal.yourUid', { uid: user.uid })}
        />
        <Field
          label={t('internal.amount')}
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={touched ? problemText(amountProblem) : null}
          hint={available ? t('internal.available', { amount: format.usdt(available) }) : undefined}
        />
        <MainAction text={t('internal.submit')} busy={send.isPending} onClick={() => void submit()} />
      </Card>
    </Screen>
  );
};
