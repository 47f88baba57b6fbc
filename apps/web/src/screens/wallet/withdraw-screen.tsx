import { type Exchange, getProfile, getWallet, type Withdrawal, withdrawMoney } from '@gridbot/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useIdempotencyKey } from '../../api/idempotency-key';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { EXCHANGE_NAMES } from '../../format/exchange-name';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { withdrawAmountProblem } from '../../forms/wallet-forms';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { MainAction } from '../../ui/main-action';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { KeyValue } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { AmountField } from './amount-field';
import { ResultHeader } from './result-header';
import { usePatchWallet, type Wallet, walletRefreshMs } from './wallet-cache';
import { isWithdrawalStatus, receivesOf, shortened } from './wallet-model';
import { WithdrawAddress } from './withdraw-address';
import { AddressLockNotice, AllowanceSummary, FrozenBanner } from './withdraw-protection';
import { WithdrawalDetails } from './withdrawal-card';

type Destination = 'address' | 'exchange';

/** A refused withdrawal in place, with the way out where there is one (docs/errors.md#client-texts). */
const WithdrawProblem = ({ error }: { error: unknown }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const code = isApiError(error) ? error.code : 'unknown';
  return (
    <div data-problem={code}>
      <Notice tone="warning">
        <p style={{ margin: 0 }}>{errorText(error, 'tryLater')}</p>
        {code === 'NO_API_CONNECTION' ? (
          <Link to="/profile/api-key" className="notice__link">
            {t('withdraw.keysLink')}
          </Link>
        ) : null}
      </Notice>
    </div>
  );
};

const Summary = ({ wallet, amount }: { wallet: Wallet; amount: string | null }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const receives = amount ? receivesOf(amount, wallet.withdrawFee) : null;
  return (
    <div className="summary" data-testid="withdraw-summary">
      <KeyValue label={t('withdrawal.networkFee')} value={`${format.usdtExact(wallet.withdrawFee)} USDT`} />
      <KeyValue label={t('withdraw.minimumLabel')} value={`${format.usdtExact(wallet.minWithdraw)} USDT`} />
      <div className="summary__total">
        <span>{t('withdrawal.receives')}</span>
        <b data-testid="withdraw-receives">{receives ? `${format.usdtExact(receives)} USDT` : '—'}</b>
      </div>
    </div>
  );
};

const WithdrawForm = ({ wallet, onDone }: { wallet: Wallet; onDone: (withdrawal: Withdrawal) => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const problemText = useProblemText();
  const patchWallet = usePatchWallet();
  const [to, setTo] = useState<Destination>('address');
  // Keys on several exchanges: the user picks whose deposit address receives the money.
  const profile = useApiQuery(getProfile, INITIAL_INPUTS.profile);
  const accounts = (profile.data?.apiKeys ?? []).map((k) => k.exchange);
  const [picked, setPicked] = useState<Exchange | null>(null);
  const exchange = picked ?? accounts[0] ?? null;
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const idempotency = useIdempotencyKey();
  const problem = withdrawAmountProblem(amount, wallet.balances.main);
  const noAddress = to === 'address' && !wallet.withdrawAddress;
  useClosingConfirmation(amount.trim() !== '');
  const withdraw = useApiMutation(withdrawMoney, {
    onSuccess: (answer) => {
      patchWallet({ balances: answer.balances });
      idempotency.renew();
      feedback('success');
      onDone(answer.withdrawal);
    },
    onError: () => feedback('error'),
  });
  // Money leaves for good: the popup states what is sent, the fee, what arrives and where.
  const submit = async () => {
    setTouched(true);
    if (problem || noAddress) {
      feedback('error');
      return;
    }
    const summ = normalizeDecimal(amount);
    const figures = {
      amount: format.usdtExact(summ),
      fee: format.usdtExact(wallet.withdrawFee),
      receives: format.usdtExact(receivesOf(summ, wallet.withdrawFee) ?? '0'),
    };
    const ok = await confirmAction({
      title: t('withdraw.confirmTitle'),
      message:
        to === 'exchange'
          ? t('withdraw.confirmExchange', { ...figures, exchange: exchange ? EXCHANGE_NAMES[exchange] : '' })
          : t('withdraw.confirm', { ...figures, address: shortened(wallet.withdrawAddress ?? '', 8, 8) }),
      confirmText: t('withdraw.submit'),
    });
    const venue = to === 'exchange' && exchange && accounts.length > 1 ? { exchange } : {};
    if (ok) withdraw.mutate({ query: { summ, to, ...venue }, headers: idempotency.headers() });
  };
  // Frozen: nothing can be withdrawn until the freeze is lifted (docs/wallet.md#freeze).
  if (wallet.frozen) return <FrozenBanner wallet={wallet} />;
  return (
    <>
      <Segmented
        label={t('withdraw.destination')}
        value={to}
        onChange={(value) => {
          setTo(value);
          idempotency.renew();
          withdraw.reset();
        }}
        options={[
          { value: 'address', label: t('withdraw.toAddress') },
          { value: 'exchange', label: t('withdraw.toExchange') },
        ]}
      />
      {to === 'address' ? (
        <>
          <WithdrawAddress saved={wallet.withdrawAddress} />
          <AddressLockNotice wallet={wallet} />
        </>
      ) : (
        <>
          {accounts.length > 1 && exchange ? (
            <Segmented
              label={t('withdraw.whichExchange')}
              value={exchange}
              onChange={(value) => {
                setPicked(value);
                idempotency.renew();
                withdraw.reset();
              }}
              options={accounts.map((value) => ({ value, label: EXCHANGE_NAMES[value] }))}
            />
          ) : null}
          <Notice>{t('withdraw.exchangeHint')}</Notice>
        </>
      )}
      <Card>
        <AmountField
          label={t('withdraw.amount')}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            idempotency.renew();
            withdraw.reset();
          }}
          max={wallet.balances.main}
          error={touched ? problemText(problem) : null}
          hint={t('wallet.available', { amount: format.usdtExact(wallet.balances.main) })}
        />
        <Summary wallet={wallet} amount={problem ? null : normalizeDecimal(amount)} />
        <AllowanceSummary wallet={wallet} amount={problem ? null : normalizeDecimal(amount)} />
      </Card>
      {touched && noAddress ? <Notice tone="warning">{t('withdraw.addressFirst')}</Notice> : null}
      {withdraw.isError ? <WithdrawProblem error={withdraw.error} /> : null}
      <p className="section-note">{t('withdraw.onChainNote')}</p>
      <MainAction text={t('withdraw.submit')} busy={withdraw.isPending} onClick={() => void submit()} />
    </>
  );
};

/**
 * The withdrawal just made, its status kept current from the wallet: in the open withdrawals while
 * on its way, then through its hold line in the transaction list (same kind, address and amount,
 * newest first), which carries the final status and the txid.
 */
const latestOf = (withdrawal: Withdrawal, wallet: Wallet | undefined): Withdrawal => {
  if (!wallet) return withdrawal;
  const open = wallet.pendingWithdrawals.find((item) => item.id === withdrawal.id);
  if (open) return open;
  const hold = wallet.transactions.items.find(
    (item) =>
      item.type === withdrawal.type &&
      item.address === withdrawal.address &&
      item.amount === `-${withdrawal.amount}`,
  );
  if (!hold || !isWithdrawalStatus(hold.status)) return withdrawal;
  return { ...withdrawal, status: hold.status, txid: hold.txid ?? withdrawal.txid };
};

const WithdrawResult = ({ withdrawal, onAgain }: { withdrawal: Withdrawal; onAgain: () => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const wallet = useApiQuery(getWallet, INITIAL_INPUTS.wallet, {
    refetchInterval: (current) => walletRefreshMs(current.state.data),
  });
  const latest = latestOf(withdrawal, wallet.data);
  const refused = latest.status === 'rejected' || latest.status === 'failed';
  return (
    <Card>
      <div data-testid="withdraw-result" data-status={latest.status}>
        <ResultHeader
          tone={refused ? 'negative' : 'positive'}
          title={t(refused ? 'withdraw.resultRefused' : 'withdraw.resultTitle')}
          text={t('withdraw.resultText', {
            amount: format.usdtExact(latest.receives),
            address: shortened(latest.address),
          })}
        />
        <WithdrawalDetails withdrawal={latest} />
      </div>
      <MainAction text={t('common.done')} onClick={() => void navigate({ to: '/wallet' })} />
      <Button variant="ghost" block onClick={onAgain}>
        {t('withdraw.again')}
      </Button>
    </Card>
  );
};

/** Withdraw USDT TRC20 (at least 11 USDT) to the saved address or the user's exchange account. */
export const WithdrawScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getWallet, INITIAL_INPUTS.wallet);
  const [done, setDone] = useState<Withdrawal | null>(null);
  return (
    <Screen back title={t('withdraw.title')}>
      {done ? (
        <WithdrawResult withdrawal={done} onAgain={() => setDone(null)} />
      ) : (
        <QueryView query={query} loading={<Skeleton height={260} />} title={t('withdraw.title')}>
          {(wallet) => <WithdrawForm wallet={wallet} onDone={setDone} />}
        </QueryView>
      )}
    </Screen>
  );
};
