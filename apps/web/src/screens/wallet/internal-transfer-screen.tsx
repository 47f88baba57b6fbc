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
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
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
  const send = useApiMutation(sendInternalTransfer, {
    onSuccess: () => {
      showToast(t('internal.sent'), 'success');
      void navigate({ to: '/wallet' });
    },
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
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
        <Button
          block
          busy={send.isPending}
          onClick={() => {
            setTouched(true);
            if (recipientProblem || amountProblem) return;
            send.mutate({ query: { summ: normalizeDecimal(amount), to_user: Number(recipient.trim()) } });
          }}
        >
          {t('internal.submit')}
        </Button>
      </Card>
    </Screen>
  );
};
