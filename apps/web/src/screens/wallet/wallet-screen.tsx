import { getWallet } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { ArrowDownIcon, ArrowUpIcon, PercentIcon, SwapIcon } from '../../ui/icons';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Skeleton } from '../../ui/states';
import { ExportCsv } from '../shared/export-csv';
import { TopUpFee } from './top-up-fee';
import { TransactionList } from './transaction-list';
import { type Wallet, walletRefreshMs } from './wallet-cache';
import { FreezeButton, FrozenBanner } from './withdraw-protection';
import { WithdrawalRow } from './withdrawal-card';

const Balances = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const dry = signOf(wallet.balances.fee) !== 'positive';
  return (
    <div className="hero wallet-hero" data-testid="balances">
      <div className="hero__label">
        {t('wallet.main')} · {t('wallet.network')}
      </div>
      <div className="hero__value" data-testid="balance-main">
        <Usdt value={wallet.balances.main} exact />
      </div>
      <div className="hero__row">
        <span data-testid="balance-fee">
          {t('wallet.fee')}
          <b>
            <Usdt value={wallet.balances.fee} exact />
          </b>
          {dry ? <span className="hero__flag">{t('wallet.feeEmptyFlag')}</span> : null}
        </span>
        <span data-testid="balance-held">
          {t('wallet.held')}
          <b>
            <Usdt value={wallet.balances.held} exact />
          </b>
        </span>
      </div>
    </div>
  );
};

const ActionLink = ({ to, label, icon }: { to: string; label: string; icon: ReactNode }) => (
  <Link to={to} className="quick-action">
    <span className="quick-action__icon">{icon}</span>
    {label}
  </Link>
);

const QuickActions = ({
  topUpOpen,
  onTopUp,
  panelId,
}: {
  topUpOpen: boolean;
  onTopUp: () => void;
  panelId: string;
}) => {
  const { t } = useTranslation();
  return (
    <nav className="quick-actions quick-actions--4" aria-label={t('wallet.actions')}>
      <ActionLink to="/wallet/deposit" label={t('wallet.deposit')} icon={<ArrowDownIcon />} />
      <ActionLink to="/wallet/withdraw" label={t('wallet.withdraw')} icon={<ArrowUpIcon />} />
      <ActionLink to="/wallet/internal-transfer" label={t('wallet.transfer')} icon={<SwapIcon />} />
      <button
        type="button"
        className="quick-action"
        aria-expanded={topUpOpen}
        aria-controls={topUpOpen ? panelId : undefined}
        onClick={onTopUp}
      >
        <span className="quick-action__icon">
          <PercentIcon />
        </span>
        {t('wallet.topUpFeeShort')}
      </button>
    </nav>
  );
};

/** A fee balance at or below zero dries the bots (docs/fees.md#fee-balance): said plainly, with the way out. */
const FeeEmpty = ({ wallet, onTopUp }: { wallet: Wallet; onTopUp: () => void }) => {
  const { t } = useTranslation();
  if (signOf(wallet.balances.fee) === 'positive') return null;
  return (
    <div data-testid="fee-empty">
      <Notice tone="warning">
        <p style={{ margin: 0 }}>{t('wallet.feeEmpty')}</p>
        <button type="button" className="notice__link notice__button" onClick={onTopUp}>
          {t('wallet.topUpFee')}
        </button>
      </Notice>
    </div>
  );
};

const PendingWithdrawals = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  if (wallet.pendingWithdrawals.length === 0) return null;
  return (
    <section aria-label={t('wallet.pending')}>
      <SectionTitle>{t('wallet.pending')}</SectionTitle>
      <Card flush>
        <ul className="tx-list">
          {wallet.pendingWithdrawals.map((withdrawal) => (
            <WithdrawalRow key={withdrawal.id} withdrawal={withdrawal} />
          ))}
        </ul>
      </Card>
    </section>
  );
};

/** Wallet: balances, deposit/withdraw/transfer/fee top-up, withdrawals on hold and 30 days of history. */
export const WalletScreen = () => {
  const { t } = useTranslation();
  const panelId = useId();
  const [topUpOpen, setTopUpOpen] = useState(false);
  const query = useApiQuery(getWallet, INITIAL_INPUTS.wallet, {
    refetchInterval: (current) => walletRefreshMs(current.state.data),
  });
  const openTopUp = () => setTopUpOpen(true);
  return (
    <Screen title={t('wallet.title')}>
      <QueryView query={query} loading={<Skeleton height={150} />} title={t('wallet.main')}>
        {(wallet) => <Balances wallet={wallet} />}
      </QueryView>
      <QuickActions topUpOpen={topUpOpen} onTopUp={() => setTopUpOpen((open) => !open)} panelId={panelId} />
      {query.data ? (
        <>
          {topUpOpen ? null : <FeeEmpty wallet={query.data} onTopUp={openTopUp} />}
          {topUpOpen ? (
            <div id={panelId}>
              <TopUpFee wallet={query.data} onClose={() => setTopUpOpen(false)} />
            </div>
          ) : null}
          <FrozenBanner wallet={query.data} />
          <PendingWithdrawals wallet={query.data} />
          <TransactionList wallet={query.data} />
          <ExportCsv query={{ file: 'wallet' }} />
          <FreezeButton wallet={query.data} />
        </>
      ) : null}
    </Screen>
  );
};
