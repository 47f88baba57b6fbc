import type { listMatchingBonusHistory, listReferralBonusHistory } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiCursorPages } from '../../api/use-api-pages';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { ButtonRow } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { PagesView } from '../../ui/pages-view';
import { Card, SectionTitle } from '../../ui/screen';
import { EmptyState } from '../../ui/states';

/** docs/product.md#limits: histories page by 10. */
const PAGE_SIZE = 10;

type HistoryEndpoint = typeof listReferralBonusHistory | typeof listMatchingBonusHistory;

/**
 * A bonus history by day, newest first, with load more and the all-time total; a day opens its
 * detail above (`onSelect`).
 */
export const BonusHistory = ({
  endpoint,
  emptyText,
  selected,
  onSelect,
}: {
  endpoint: HistoryEndpoint;
  emptyText: string;
  selected: string | null;
  onSelect: (date: string) => void;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiCursorPages(endpoint, (cursor) => ({
    query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }));
  const first = query.data?.pages[0];
  return (
    <>
      <SectionTitle
        action={
          first ? (
            <span className="muted" data-testid="history-total">
              {t('bonus.allTime')} <Usdt value={first.totalAmount} />
            </span>
          ) : undefined
        }
      >
        {t('bonus.history')}
      </SectionTitle>
      <PagesView
        query={query}
        itemsOf={(page) => page.items}
        keyOf={(day) => day.date}
        empty={<EmptyState title={emptyText} />}
      >
        {(days) => (
          <Card flush>
            <div data-testid="bonus-history">
              {days.map((day) => (
                <div
                  key={day.date}
                  data-date={day.date}
                  aria-current={day.date === selected ? 'date' : undefined}
                >
                  <ButtonRow
                    onClick={() => onSelect(day.date)}
                    title={format.date(day.date)}
                    subtitle={
                      <>
                        {t('bonus.payments', { count: day.payments })}{' '}
                        {day.status === 'pending' ? (
                          <Badge tone="warning">{t('matchingBonus.statuses.pending')}</Badge>
                        ) : null}
                      </>
                    }
                    end={<Usdt value={day.amount} unit={false} />}
                    chevron
                  />
                </div>
              ))}
            </div>
          </Card>
        )}
      </PagesView>
    </>
  );
};
