import { getReferralBonusDetail, listReferralBonusHistory, REFERRAL_BONUS_PCTS } from '@gridbot/contracts';
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
 * Referral bonus (docs/bonuses.md#referral-bonus): 30 % / 8 % / 5 % of the licence payments of
 * lines 1–3. A day's detail (today by default, or the day picked in the history) and the history.
 */
export const ReferralBonusScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [date, setDate] = useState<string | null>(null);
  const detail = useApiQuery(getReferralBonusDetail, { query: { date: date ?? 'today' } });
  return (
    <Screen back title={t('referralBonus.title')} subtitle={t('referralBonus.levels')}>
      <Card>
        <Stats columns={3}>
          {REFERRAL_BONUS_PCTS.map((pct, index) => (
            <Stat key={pct} label={t('partners.line', { line: index + 1 })} value={`${pct}%`} />
          ))}
        </Stats>
      </Card>
      <SectionTitle>{date ? format.date(date) : t('bonus.today')}</SectionTitle>
      <QueryView query={detail} loading={<SkeletonRows rows={2} />} title={t('referralBonus.title')}>
        {(day) =>
          day.items.length === 0 ? (
            <Card>
              <EmptyState title={t('bonus.noneThatDay')} />
            </Card>
          ) : (
            <Card flush>
              <div data-testid="bonus-detail" data-date={day.date}>
                <Row
                  title={t('bonus.dayTotal')}
                  end={
                    <b data-testid="detail-total">
                      <Usdt value={day.total} />
                    </b>
                  }
                />
                {day.items.map((item) => (
                  <Row
                    key={`${item.from.uid}-${item.at}`}
                    start={<Avatar name={item.from.firstName} />}
                    title={`${item.from.username ? `@${item.from.username}` : item.from.firstName} · ${item.licenseLevel}`}
                    subtitle={
                      item.paid
                        ? `${t('partners.line', { line: item.line })} · ${format.pct(item.ratePct)} × ${format.usdt(item.purchaseAmount)} USDT`
                        : t('referralBonus.notPaid')
                    }
                    end={
                      item.paid ? (
                        <Usdt value={item.amount} unit={false} />
                      ) : (
                        <Badge tone="neutral">{t('bonus.forfeited')}</Badge>
                      )
                    }
                  />
                ))}
              </div>
            </Card>
          )
        }
      </QueryView>
      <BonusHistory
        endpoint={listReferralBonusHistory}
        emptyText={t('referralBonus.empty')}
        selected={date}
        onSelect={setDate}
      />
    </Screen>
  );
};
