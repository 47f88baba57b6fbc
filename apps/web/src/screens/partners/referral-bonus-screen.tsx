import { getReferralBonusDetail, listReferralBonusHistory, REFERRAL_BONUS_PCTS } from '@gridbot/contracts';
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

/** Referral bonus: 30 % / 8 % / 5 % of licence payments of lines 1–3; today's detail and history. */
export const ReferralBonusScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const today = useApiQuery(getReferralBonusDetail, { query: { date: 'today' } });
  return (
    <Screen back title={t('referralBonus.title')} subtitle={t('referralBonus.levels')}>
      <Card>
        <Stats columns={3}>
          {REFERRAL_BONUS_PCTS.map((pct, index) => (
            <Stat key={pct} label={t('partners.line', { line: index + 1 })} value={`${pct}%`} />
          ))}
        </Stats>
      </Card>
      <SectionTitle>{t('referralBonus.today')}</SectionTitle>
      <QueryView query={today} loading={<Skeleton height={90} />}>
        {(detail) => (
          <Card flush>
            <Row title={format.date(detail.date)} end={<Usdt value={detail.total} />} />
            {detail.items.map((item) => (
              <Row
                key={`${item.from.uid}-${item.at}`}
                start={<Avatar name={item.from.firstName} />}
                title={`${item.from.firstName} · ${item.licenseLevel}`}
                subtitle={
                  item.paid
                    ? `${t('partners.line', { line: item.line })} · ${format.pct(item.ratePct)} × ${format.usdt(item.purchaseAmount)}`
                    : t('referralBonus.notPaid')
                }
                end={item.paid ? <Usdt value={item.amount} unit={false} /> : <Badge tone="neutral">0</Badge>}
              />
            ))}
          </Card>
        )}
      </QueryView>
      <SectionTitle>{t('referralBonus.history')}</SectionTitle>
      <BonusHistory endpoint={listReferralBonusHistory} emptyText={t('referralBonus.empty')} />
    </Screen>
  );
};
