import { getDailyCoinsPnl, listDailyPnl, listMonthlyPnl } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useApiCursorPages } from '../../api/use-api-pages';
import { useFormat } from '../../format/use-format';
import { ButtonRow, CoinAvatar, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { PagesView } from '../../ui/pages-view';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState } from '../../ui/states';
import { PnlExports } from '../shared/export-csv';

/** docs/product.md#limits: page size 10. */
const PAGE_SIZE = 10;

const CoinsOfDay = ({ date }: { date: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiQuery(getDailyCoinsPnl, { query: { target_date: date } });
  return (
    <div className="nested-list">
      <QueryView query={query} card={false}>
        {(day) => (
          <>
            <div className="nested-list__title">{t('pnl.coinsOf', { date: format.date(day.date) })}</div>
            {day.coins.map((coin) => (
              <Row
                key={coin.coin}
                start={<CoinAvatar coin={coin.coin} />}
                title={coin.coin}
                subtitle={t('pnl.trades', { closed: coin.closedTrades, profitable: coin.profitableTrades })}
                end={<Usdt value={coin.realizedPnl} signed unit={false} />}
              />
            ))}
          </>
        )}
      </QueryView>
    </div>
  );
};

const DailyList = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [open, setOpen] = useState<string | null>(null);
  const query = useApiCursorPages(listDailyPnl, (cursor) => ({
    query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }));
  return (
    <PagesView
      query={query}
      itemsOf={(page) => page.items}
      keyOf={(day) => day.date}
      empty={<EmptyState title={t('pnl.empty')} />}
    >
      {(days) => (
        <Card flush>
          {days.map((day) => (
            <div key={day.date}>
              <ButtonRow
                onClick={() => setOpen(open === day.date ? null : day.date)}
                title={format.date(day.date)}
                subtitle={`${t('pnl.trades', { closed: day.closedTrades, profitable: day.profitableTrades })} · ${t('pnl.fee', { amount: format.usdt(day.tradeFee) })}`}
                end={<Usdt value={day.realizedPnl} signed />}
              />
              {open === day.date ? <CoinsOfDay date={day.date} /> : null}
            </div>
          ))}
        </Card>
      )}
    </PagesView>
  );
};

const MonthlyList = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiCursorPages(listMonthlyPnl, (cursor) => ({
    query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }));
  return (
    <PagesView
      query={query}
      itemsOf={(page) => page.items}
      keyOf={(month) => month.month}
      empty={<EmptyState title={t('pnl.empty')} />}
    >
      {(months) => (
        <Card flush>
          {months.map((month) => (
            <Row
              key={month.month}
              title={format.month(month.month)}
              subtitle={`${t('pnl.tradingDays', { count: month.tradingDays })} · ${t('pnl.trades', { closed: month.closedTrades, profitable: month.profitableTrades })}`}
              end={<Usdt value={month.realizedPnl} signed />}
            />
          ))}
        </Card>
      )}
    </PagesView>
  );
};

/** PnL statistics per day (with coins per date) and per month, loaded page by page. */
export const PnlStatScreen = () => {
  const { t } = useTranslation();
  const [view, setView] = useState<'daily' | 'monthly'>('daily');
  return (
    <Screen title={t('pnl.title')} back>
      <Segmented
        label={t('pnl.title')}
        value={view}
        onChange={setView}
        options={[
          { value: 'daily', label: t('pnl.daily') },
          { value: 'monthly', label: t('pnl.monthly') },
        ]}
      />
      <PnlExports />
      {view === 'daily' ? <DailyList /> : <MonthlyList />}
      {/* The rows are UTC days and months (docs/pnl.md#days-and-times), never the reader's. */}
      <p className="section-hint pnl-utc-note">{t(view === 'daily' ? 'pnl.utcDays' : 'pnl.utcMonths')}</p>
    </Screen>
  );
};
