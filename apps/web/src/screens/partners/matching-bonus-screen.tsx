import { getMatchingBonusDetail, listMatchingBonusHistory, MATCHING_BONUS_PCTS } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Avatar, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Stat, Stats } from '../../ui/stat';
import { EmptyState, SkeletonRows } from '../../ui/states';
import { BonusHistory } from './bonus-history';

/**
 * Matching bonus (docs/bonuses.md#matching-bonus): 10 % / 5 % / 3 % of the trading fees of
 * generations 1–3, as far as the licence pays. A day's detail (today by default, pending until
 * the day closes, or the day picked in the history) and the history.
 */
export const MatchingBonusScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [date, setDate] = useState<string | null>(null);
  const detail = useApiQuery(getMatchingBonusDetail, { query: { date: date ?? 'today' } });
  return (
    <Screen back title={t('matchingBonus.title')} subtitle={t('matchingBonus.levels')}>
      <Card>
        <Stats columns={3}>
          {MATCHING_BONUS_PCTS.map((pct, index) => (
            <Stat
              key={pct}
              label={t('matchingBonus.generation', { generation: index + 1 })}
              value={`${pct}%`}
            />
          ))}
        </Stats>
        {detail.data ? (
          <p className="muted partner-note" data-testid="matching-generations">
            {t('matchingBonus.generations', { count: detail.data.matchingGenerations })}
          </p>
        ) : null}
      </Card>
      <SectionTitle>{date ? format.date(date) : t('bonus.today')}</SectionTitle>
      <QueryView query={detail} loading={<SkeletonRows rows={2} />} title={t('matchingBonus.title')}>
        {(day) => (
          <Card flush>
            <div data-testid="bonus-detail" data-date={day.date}>
              <Row
                title={t('bonus.dayTotal')}
                end={
                  <>
                    <b data-testid="detail-total">
                      <Usdt value={day.total} />
                    </b>{' '}
                    <Badge tone={day.status === 'credited' ? 'positive' : 'warning'}>
                      {t(`matchingBonus.statuses.${day.status}`)}
                    </Badge>
                  </>
                }
              />
              {day.items.length === 0 ? (
                <EmptyState title={t('bonus.noneThatDay')} />
              ) : (
                day.items.map((item) => (
                  <Row
                    key={`${item.from.uid}-${item.generation}`}
                    start={<Avatar name={item.from.firstName} />}
                    title={item.from.username ? `@${item.from.username}` : item.from.firstName}
                    subtitle={`${t('matchingBonus.generation', { generation: item.generation })} · ${format.pct(item.ratePct)} × ${format.usdt(item.tradeFee)} USDT`}
                    end={<Usdt value={item.amount} unit={false} />}
                  />
                ))
              )}
            </div>
          </Card>
        )}
      </QueryView>
      <BonusHistory
        endpoint={listMatchingBonusHistory}
        emptyText={t('matchingBonus.empty')}
        selected={date}
        onSelect={setDate}
      />
    </Screen>
  );
};
