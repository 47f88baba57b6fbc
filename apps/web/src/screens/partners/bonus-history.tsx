import type { listMatchingBonusHistory, listReferralBonusHistory } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiPages } from '../../api/use-api-pages';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { PagesView } from '../../ui/pages-view';
import { Card } from '../../ui/screen';
import { EmptyState } from '../../ui/states';

/** docs/product.md#limits: histories page by 10. */
const PAGE_SIZE = 10;

type HistoryEndpoint = typeof listReferralBonusHistory | typeof listMatchingBonusHistory;

/** A bonus history by day, newest first, with load more. */
export const BonusHistory = ({ endpoint, emptyText }: { endpoint: HistoryEndpoint; emptyText: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiPages(endpoint, (page) => ({ query: { page, limit: PAGE_SIZE } }));
  return (
    <PagesView query={query} itemsOf={(page) => page.items} empty={<EmptyState title={emptyText} />}>
      {(days) => (
        <Card flush>
          {days.map((day) => (
            <Row
              key={day.date}
              title={format.date(day.date)}
              subtitle={
                <>
                  {t('referralBonus.payments', { count: day.payments })}{' '}
                  {day.status === 'pending' ? (
                    <Badge tone="warning">{t('matchingBonus.statuses.pending')}</Badge>
                  ) : null}
                </>
              }
              end={<Usdt value={day.amount} unit={false} />}
            />
          ))}
        </Card>
      )}
    </PagesView>
  );
};
