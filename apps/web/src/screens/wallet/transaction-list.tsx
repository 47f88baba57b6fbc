import { getWallet, type Transaction, type TransactionType } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiPages } from '../../api/use-api-pages';
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

/** All types: page 1 came with the wallet (balances and list share one call), more on demand. */
const AllTypes = ({ wallet }: { wallet: Wallet }) => {
  const [more, setMore] = useState(false);
  const next = useApiPages(getWallet, (page) => ({ query: { days, page, limit } }), {
    enabled: more,
    firstPage: 2,
  });
  const items = [
    ...wallet.transactions.items,
    ...(next.data?.pages.flatMap((page) => page.transactions.items) ?? []),
  ];
  if (items.length === 0) return <Empty filtered={false} />;
  return (
    <>
      <Days items={items} />
      {next.isError ? <ErrorState error={next.error} onRetry={() => void next.fetchNextPage()} /> : null}
      <LoadMore
        hasMore={more ? next.hasNextPage : wallet.transactions.hasMore}
        loading={next.isFetching}
        onLoad={() => (more ? void next.fetchNextPage() : setMore(true))}
      />
    </>
  );
};

/** One type only: its own pages from the first. */
const OfType = ({ type }: { type: TransactionType }) => {
  const query = useApiPages(getWallet, (page) => ({ query: { days, page, limit, type } }));
  if (query.isPending) return <SkeletonRows rows={3} />;
  if (query.isError && !query.data) {
    return (
      <Card>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  const items = query.data?.pages.flatMap((page) => page.transactions.items) ?? [];
  if (items.length === 0) return <Empty filtered />;
  return (
    <>
      <Days items={items} />
      <LoadMore
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoad={() => void query.fetchNextPage()}
      />
    </>
  );
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
      {type ? <OfType type={type} /> : <AllTypes wallet={wallet} />}
    </section>
  );
};
