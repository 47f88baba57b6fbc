import { getMatchingBonusDetail, listMatchingBonusHistory, MATCHING_BONUS_PCTS } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Avatar, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Stat, Stats } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { BonusHistory } from './bonus-history';

/** Matching bonus: a share of the trading fees of generations 1–3; today's detail and history. */
export const MatchingBonusScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const today = useApiQuery(getMatchingBonusDetail, { query: { date: 'today' } });
  return (
    <Screen back title={t('matchingBonus.title')}>
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
      </Card>
      <SectionTitle>{t('matchingBonus.today')}</SectionTitle>
      <QueryView query={today} loading={<Skeleton height={90} />}>
        {(detail) => (
          <Card flush>
            <Row
              title={format.date(detail.date)}
              subtitle={t('matchingBonus.generations', { count: detail.matchingGenerations })}
              end={
                <>
                  <Usdt value={detail.total} />{' '}
                  <Badge tone={detail.status === 'credited' ? 'positive' : 'warning'}>
                    {t(`matchingBonus.statuses.${detail.status}`)}
                  </Badge>
                </>
              }
            />
            {detail.items.map((item) => (
              <Row
                key={item.from.uid}
                start={<Avatar name={item.from.firstName} />}
                title={item.from.firstName}
                subtitle={`${t('matchingBonus.generation', { generation: item.generation })} · ${format.pct(item.ratePct)} × ${format.usdt(item.tradeFee)}`}
                end={<Usdt value={item.amount} unit={false} />}
              />
            ))}
          </Card>
        )}
      </QueryView>
      <SectionTitle>{t('matchingBonus.history')}</SectionTitle>
      <BonusHistory endpoint={listMatchingBonusHistory} emptyText={t('matchingBonus.empty')} />
    </Screen>
  );
};
