import { getWallet, type Transaction, type TransactionType } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useLiveList } from '../../api/use-api-pages';
import { groupByDay } from '../../format/group-by-day';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { LoadMore } from '../../ui/load-more';
import { Card, SectionTitle } from '../../ui/screen';
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/states';
import { UtcDayTitle } from '../../ui/utc-day-title';
import { TransactionRow } from './transaction-row';
import type { Wallet } from './wallet-cache';
import { FILTER_TYPES } from './wallet-model';

const Days = ({ items }: { items: readonly Transaction[] }) => (
  <>
    {groupByDay(items, (item) => item.createdAt).map(({ day, items: ofDay }) => (
      <section key={day} className="tx-day">
        <UtcDayTitle day={day} />
        <Card flush>
          <ul className="tx-list">
            {ofDay.map((transaction) => (
              <TransactionRow key={transaction.id} transaction={transaction} day={day} />
            ))}
          </ul>
        </Card>
      </section>
    ))}
  </>
);

const Empty = ({ filtered }: { filtered: boolean }) => {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        title={t(filtered ? 'wallet.noTransactionsOfType' : 'wallet.noTransactions')}
        text={filtered ? undefined : t('wallet.noTransactionsHint')}
        action={
          filtered ? undefined : (
            <Link to="/wallet/deposit" className="button button--secondary button--small">
              {t('wallet.deposit')}
            </Link>
          )
        }
      />
    </Card>
  );
};

const { days, limit } = INITIAL_INPUTS.wallet.query;

const byId = (transaction: Transaction) => transaction.id;

/**
 * The list with load more: its first page is `head` (refreshed with the wallet), the pages after
 * it come by cursor and stay exact while new transactions arrive at the top
 * (docs/decisions.md#lists-paged-by-cursor-issue-22).
 */
const Pages = ({ head, type }: { head: Wallet['transactions']; type?: TransactionType | undefined }) => {
  const list = useLiveList({
    endpoint: getWallet,
    head,
    inputFor: (cursor) => ({ query: { days, limit, cursor, ...(type ? { type } : {}) } }),
    pageOf: (answer) => answer.transactions,
    keyOf: byId,
  });
  if (list.items.length === 0) return <Empty filtered={type !== undefined} />;
  return (
    <>
      <Days items={list.items} />
      {list.error ? <ErrorState error={list.error} onRetry={list.retry} /> : null}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onLoad={list.loadMore} />
    </>
  );
};

/** All types: page 1 came with the wallet (balances and list share one call), more on demand. */
const AllTypes = ({ wallet }: { wallet: Wallet }) => <Pages head={wallet.transactions} />;

/** One type only: its own first page, then more on demand. */
const OfType = ({ type }: { type: TransactionType }) => {
  const query = useApiQuery(getWallet, { query: { days, page: 1, limit, type } });
  if (query.isPending) return <SkeletonRows rows={3} />;
  if (query.isError && !query.data) {
    return (
      <Card>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  return <Pages head={query.data?.transactions} type={type} />;
};

/** The last 30 days of transactions, newest first, grouped by day, with a type filter and load-more. */
export const TransactionList = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const filterId = useId();
  const [type, setType] = useState<TransactionType | ''>('');
  return (
    <section className="tx-history" aria-labelledby={`${filterId}-title`}>
      <SectionTitle
        action={
          <>
            <label htmlFor={filterId} className="visually-hidden">
              {t('wallet.filterLabel')}
            </label>
            <span className="select-wrap">
              <select
                id={filterId}
                className="select"
                value={type}
                onChange={(event) => setType(event.target.value as TransactionType | '')}
              >
                <option value="">{t('wallet.filterAll')}</option>
                {FILTER_TYPES.map((option) => (
                  <option key={option} value={option}>
                    {t(`wallet.types.${option}`)}
                  </option>
                ))}
              </select>
            </span>
          </>
        }
      >
        <span id={`${filterId}-title`}>{t('wallet.history')}</span>
      </SectionTitle>
      {type ? <OfType key={type} type={type} /> : <AllTypes wallet={wallet} />}
    </section>
  );
};
