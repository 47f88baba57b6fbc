import {
  addWithdrawAddress,
  getWallet,
  MIN_WITHDRAW_USDT,
  type ResponseOf,
  updateWithdrawAddress,
  withdrawMoney,
} from '@gridbot/contracts';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletErrorText } from '../../api/error-text';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { withdrawAddressProblem, withdrawAmountProblem } from '../../forms/wallet-forms';
import { INITIAL_INPUTS } from '../../session/initial-load';
import { showToast } from '../../shell/toast-store';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { MainAction, SecondaryAction } from '../../ui/main-action';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { Skeleton } from '../../ui/states';

type Wallet = ResponseOf<typeof getWallet>;

const AddressForm = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const [editing, setEditing] = useState(!wallet.withdrawAddress);
  const [address, setAddress] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = withdrawAddressProblem(address);
  useClosingConfirmation(editing && address.trim() !== '');
  const onSuccess = () => {
    showToast(t('withdraw.addressSaved'), 'success');
    setEditing(false);
  };
  // docs/errors.md: address errors show the server's detail, then its message, then 'Unknown error'.
  const onError = (error: unknown) => showToast(walletErrorText(error) ?? t('errors.unknown'), 'error');
  const add = useApiMutation(addWithdrawAddress, { onSuccess, onError });
  const update = useApiMutation(updateWithdrawAddress, { onSuccess, onError });
  if (!editing && wallet.withdrawAddress) {
    return (
      <Card title={t('withdraw.address')}>
        <div className="address-box">
          <span className="mono">{wallet.withdrawAddress}</span>
        </div>
        <Button variant="ghost" small onClick={() => setEditing(true)} style={{ marginTop: 8 }}>
          {t('withdraw.changeAddress')}
        </Button>
      </Card>
    );
  }
  const save = () => {
    setTouched(true);
    if (problem) return;
    const input = { query: { address: address.trim() } };
    if (wallet.withdrawAddress) update.mutate(input);
    else add.mutate(input);
  };
  return (
    <Card title={t('withdraw.address')}>
      {wallet.withdrawAddress ? null : (
        <p className="muted" style={{ marginBottom: 10 }}>
          {t('withdraw.noAddress')}
        </p>
      )}
      <Field
        label={t('withdraw.address')}
        placeholder={t('withdraw.addressPlaceholder')}
        value={address}
        onChange={setAddress}
        autoComplete="off"
        spellCheck={false}
        error={touched ? problemText(problem) : null}
      />
      <SecondaryAction
        text={t('withdraw.saveAddress')}
        busy={add.isPending || update.isPending}
        onClick={save}
      />
    </Card>
  );
};

const AmountForm = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const errorText = useActionError();
  const problemText = useProblemText();
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState<'address' | 'exchange'>('address');
  const [touched, setTouched] = useState(false);
  const min = wallet.minWithdraw || MIN_WITHDRAW_USDT;
  const problem = withdrawAmountProblem(amount, wallet.balances.main);
  useClosingConfirmation(amount.trim() !== '');
  const withdraw = useApiMutation(withdrawMoney, {
    onSuccess: () => {
      showToast(t('withdraw.requested'), 'success');
      void navigate({ to: '/wallet' });
    },
    // docs/errors.md: withdraw errors carry the error object; its text, else 'Please try again later'.
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
  // Money leaves the wallet: the user confirms the amount and the fee first.
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    const summ = normalizeDecimal(amount);
    const ok = await confirmAction({
      message: t('withdraw.confirm', { amount: format.usdt(summ), fee: format.usdt(wallet.withdrawFee) }),
      confirmText: t('withdraw.submit'),
    });
    if (ok) withdraw.mutate({ query: { summ, to } });
  };
  return (
    <Card>
      <Segmented
        label={t('withdraw.destination')}
        value={to}
        onChange={setTo}
        options={[
          { value: 'address', label: t('withdraw.toAddress') },
          { value: 'exchange', label: t('withdraw.toExchange') },
        ]}
      />
      <Field
        label={t('withdraw.amount')}
        inputMode="decimal"
        value={amount}
        onChange={setAmount}
        error={touched ? problemText(problem) : null}
        hint={t('withdraw.available', { amount: format.usdt(wallet.balances.main) })}
      />
      <p className="muted" style={{ fontSize: 13, marginBottom: 12 }}>
        {t('withdraw.minimum', { min: format.usdt(min) })} ·{' '}
        {t('withdraw.networkFee', { fee: format.usdt(wallet.withdrawFee) })}
      </p>
      <MainAction
        text={t('withdraw.submit')}
        busy={withdraw.isPending}
        disabled={to === 'address' && !wallet.withdrawAddress}
        onClick={() => void submit()}
      />
    </Card>
  );
};

/** Withdraw USDT TRC20 (at least 11 USDT) to the saved address or the user's exchange account. */
export const WithdrawScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getWallet, INITIAL_INPUTS.wallet);
  return (
    <Screen back title={t('withdraw.title')}>
      <Notice>{t('deposit.onlyUsdt')}</Notice>
      <QueryView query={query} loading={<Skeleton height={220} />} title={t('withdraw.address')}>
        {(wallet) => (
          <>
            <AddressForm wallet={wallet} />
            <AmountForm wallet={wallet} />
          </>
        )}
      </QueryView>
    </Screen>
  );
};
