import { getWallet, type ResponseOf, topUpFeeBalance } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useApiPages } from '../../api/use-api-pages';
import { useFormat } from '../../format/use-format';
import { useProblemText } from '../../forms/use-problem-text';
import { normalizeDecimal } from '../../forms/validation';
import { topUpAmountProblem } from '../../forms/wallet-forms';
import { INITIAL_INPUTS } from '../../session/initial-load';
import { showToast } from '../../shell/toast-store';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { ArrowDownIcon, ArrowUpIcon, SwapIcon } from '../../ui/icons';
import { Row } from '../../ui/list-row';
import { LoadMore } from '../../ui/load-more';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';
import { StatusBadge, TransactionRow } from './transaction-row';

type Wallet = ResponseOf<typeof getWallet>;

const Balances = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  return (
    <div className="hero">
      <div className="hero__label">
        {t('wallet.main')} · {t('wallet.network')}
      </div>
      <div className="hero__value">
        <Usdt value={wallet.balances.main} />
      </div>
      <div className="hero__row">
        <span>
          {t('wallet.fee')}
          <b>
            <Usdt value={wallet.balances.fee} />
          </b>
        </span>
        <span>
          {t('wallet.held')}
          <b>
            <Usdt value={wallet.balances.held} />
          </b>
        </span>
      </div>
    </div>
  );
};

const QuickActions = () => {
  const { t } = useTranslation();
  const actions = [
    { to: '/wallet/deposit', label: t('wallet.deposit'), Icon: ArrowDownIcon },
    { to: '/wallet/withdraw', label: t('wallet.withdraw'), Icon: ArrowUpIcon },
    { to: '/wallet/internal-transfer', label: t('wallet.transfer'), Icon: SwapIcon },
  ] as const;
  return (
    <div className="quick-actions">
      {actions.map(({ to, label, Icon }) => (
        <Link key={to} to={to} className="quick-action">
          <span className="quick-action__icon">
            <Icon />
          </span>
          {label}
        </Link>
      ))}
    </div>
  );
};

const TopUpFee = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const problemText = useProblemText();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = topUpAmountProblem(amount, wallet.balances.main);
  useClosingConfirmation(amount.trim() !== '');
  const topUp = useApiMutation(topUpFeeBalance, {
    onSuccess: () => {
      showToast(t('wallet.topUpFeeDone'), 'success');
      setAmount('');
      setTouched(false);
    },
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
  // Money moves between the user's balances: confirmed first, like every payment.
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    const summ = normalizeDecimal(amount);
    const ok = await confirmAction({
      message: t('wallet.confirmTopUp', { amount: format.usdt(summ) }),
      confirmText: t('wallet.topUpFee'),
    });
    if (ok) topUp.mutate({ query: { summ } });
  };
  return (
    <Card title={t('wallet.topUpFee')}>
      <p className="muted" style={{ fontSize: 13, marginTop: -6, marginBottom: 10 }}>
        {t('wallet.feeHint')}
      </p>
      <Field
        label={t('wallet.topUpFeeAmount')}
        inputMode="decimal"
        value={amount}
        onChange={setAmount}
        error={touched ? problemText(problem) : null}
      />
      <Button block variant="secondary" busy={topUp.isPending} onClick={() => void submit()}>
        {t('wallet.topUpFee')}
      </Button>
    </Card>
  );
};

const Transactions = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const [more, setMore] = useState(false);
  const { days, limit } = INITIAL_INPUTS.wallet.query;
  const next = useApiPages(getWallet, (page) => ({ query: { days, page, limit } }), {
    enabled: more,
    firstPage: 2,
  });
  const items = [
    ...wallet.transactions.items,
    ...(next.data?.pages.flatMap((page) => page.transactions.items) ?? []),
  ];
  const hasMore = more ? next.hasNextPage : wallet.transactions.hasMore;
  if (items.length === 0) {
    return (
      <Card>
        <EmptyState title={t('wallet.noTransactions')} />
      </Card>
    );
  }
  return (
    <>
      <Card flush>
        {items.map((transaction) => (
          <TransactionRow key={transaction.id} transaction={transaction} />
        ))}
      </Card>
      <LoadMore
        hasMore={hasMore}
        loading={next.isFetching}
        onLoad={() => (more ? void next.fetchNextPage() : setMore(true))}
      />
    </>
  );
};

const PendingWithdrawals = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  if (wallet.pendingWithdrawals.length === 0) return null;
  return (
    <>
      <SectionTitle>{t('wallet.pending')}</SectionTitle>
      <Card flush>
        {wallet.pendingWithdrawals.map((withdrawal) => (
          <Row
            key={withdrawal.id}
            start={<StatusBadge status={withdrawal.status} />}
            title={`${format.usdt(withdrawal.receives)} USDT`}
            subtitle={`${withdrawal.address.slice(0, 6)}…${withdrawal.address.slice(-6)} · ${format.dateTime(withdrawal.createdAt)}`}
          />
        ))}
      </Card>
    </>
  );
};

/** Wallet: balances, deposit/withdraw/transfer, fee top-up and the last 30 days of transactions. */
export const WalletScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getWallet, INITIAL_INPUTS.wallet);
  return (
    <Screen title={t('wallet.title')}>
      <QueryView query={query} loading={<Skeleton height={150} />} title={t('wallet.main')}>
        {(wallet) => <Balances wallet={wallet} />}
      </QueryView>
      <QuickActions />
      {query.data ? (
        <>
          <PendingWithdrawals wallet={query.data} />
          <TopUpFee wallet={query.data} />
          <SectionTitle>{t('wallet.history')}</SectionTitle>
          <Transactions wallet={query.data} />
        </>
      ) : null}
    </Screen>
  );
};
