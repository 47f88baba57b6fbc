import { topUpFeeBalance } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../api/idempotency-key';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { topUpAmountProblem } from '../../forms/wallet-forms';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { MainAction } from '../../ui/main-action';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';
import { AmountField } from './amount-field';
import { usePatchWallet, type Wallet } from './wallet-cache';

type Done = { amount: string; fee: string };

/**
 * Moves money from the main to the fee balance (docs/fees.md#fee-balance), in place on the wallet:
 * confirmed first, the result and any refusal shown where the amount was typed.
 */
export const TopUpFee = ({ wallet, onClose }: { wallet: Wallet; onClose: () => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const problemText = useProblemText();
  const patchWallet = usePatchWallet();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const idempotency = useIdempotencyKey();
  const problem = topUpAmountProblem(amount, wallet.balances.main);
  useClosingConfirmation(amount.trim() !== '');
  const topUp = useApiMutation(topUpFeeBalance, {
    onSuccess: (answer, { query }) => {
      patchWallet({ balances: answer.balances });
      feedback('success');
      idempotency.renew();
      setDone({ amount: query.summ, fee: answer.balances.fee });
      setAmount('');
      setTouched(false);
    },
    onError: () => feedback('error'),
  });
  const submit = async () => {
    setTouched(true);
    if (problem) {
      feedback('error');
      return;
    }
    const summ = normalizeDecimal(amount);
    const ok = await confirmAction({
      title: t('topUp.confirmTitle'),
      message: t('topUp.confirm', { amount: format.usdtExact(summ) }),
      confirmText: t('topUp.submit'),
    });
    if (!ok) return;
    setDone(null);
    topUp.mutate({ query: { summ }, headers: idempotency.headers() });
  };
  return (
    <Card title={t('topUp.title')}>
      <p className="card__text">{t('topUp.hint')}</p>
      <AmountField
        label={t('topUp.amount')}
        value={amount}
        onChange={(value) => {
          setAmount(value);
          idempotency.renew();
          topUp.reset();
        }}
        max={wallet.balances.main}
        error={touched ? problemText(problem) : null}
        hint={t('wallet.available', { amount: format.usdtExact(wallet.balances.main) })}
      />
      {topUp.isError ? (
        <div data-problem="top-up">
          <Notice tone="warning">{errorText(topUp.error, 'tryLater')}</Notice>
        </div>
      ) : null}
      {done ? (
        <div className="result-line" role="status" data-result="top-up">
          {t('topUp.done', { amount: format.usdtExact(done.amount), fee: format.usdtExact(done.fee) })}
        </div>
      ) : null}
      <MainAction text={t('topUp.submit')} busy={topUp.isPending} onClick={() => void submit()} />
      <Button variant="ghost" block onClick={onClose}>
        {t('common.close')}
      </Button>
    </Card>
  );
};
