import {
  getNetworkExpansion,
  NETWORK_EXPANSION_MIN_PARTNERS,
  NETWORK_EXPANSION_PCT,
} from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Avatar, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Progress } from '../../ui/progress';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';

/** Network expansion bonus: progress towards qualifying this month, the pool and past months. */
export const NetworkExpansionBonusScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiQuery(getNetworkExpansion, { query: { period: 'current_month' } });
  return (
    <Screen
      back
      title={t('expansion.title')}
      subtitle={t('expansion.rule', { count: NETWORK_EXPANSION_MIN_PARTNERS, pct: NETWORK_EXPANSION_PCT })}
    >
      <QueryView query={query} loading={<Skeleton height={180} />} title={t('expansion.projected')}>
        {(data) => (
          <>
            <div className="hero">
              <div className="hero__label">
                {t('expansion.projected')} · {format.month(data.month)}
              </div>
              <div className="hero__value" data-testid="expansion-projected">
                <Usdt value={data.projectedBonus} />
              </div>
              <div className="hero__row">
                <span>
                  {t('expansion.pool')}
                  <b data-testid="expansion-pool">
                    <Usdt value={data.pool} />
                  </b>
                </span>
                <span>{t('expansion.payout', { date: format.date(data.payoutDate) })}</span>
              </div>
            </div>
            <Card>
              <div
                className="status-line status-line--wrap"
                style={{ marginBottom: 8, gap: 8 }}
                data-testid="expansion-status"
              >
                <span data-testid="expansion-progress">
                  {t('expansion.progress', {
                    count: data.qualifyingPartners,
                    required: data.requiredPartners,
                  })}
                </span>
                <Badge tone={data.qualified ? 'positive' : 'neutral'}>
                  {data.qualified ? t('expansion.qualified') : t('expansion.notQualified')}
                </Badge>
              </div>
              <Progress
                value={data.qualifyingPartners}
                max={data.requiredPartners}
                label={t('expansion.title')}
              />
              {data.licenseQualifies ? null : (
                <p className="license-hint" data-testid="expansion-license-required">
                  {t('expansion.licenseRequired')}
                </p>
              )}
            </Card>
            <Notice>{t('expansion.ranking', { count: data.requiredPartners })}</Notice>
            <SectionTitle>{t('expansion.registrations')}</SectionTitle>
            {data.registrations.length === 0 ? (
              <Card>
                <EmptyState title={t('expansion.noRegistrations')} />
              </Card>
            ) : (
              <Card flush>
                <div data-testid="expansion-registrations">
                  {data.registrations.map((partner) => (
                    <div key={partner.uid} data-qualifying={partner.qualifying}>
                      <Row
                        start={<Avatar name={partner.firstName} />}
                        title={partner.username ? `@${partner.username}` : partner.firstName}
                        subtitle={[
                          t('partners.line', { line: partner.line }),
                          format.date(partner.registeredAt),
                          signOf(partner.licensePurchase) === 'zero'
                            ? ''
                            : t('myPartners.purchases', { amount: format.usdt(partner.licensePurchase) }),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                        end={
                          partner.qualifying ? (
                            <Badge tone="positive">{t('expansion.counts')}</Badge>
                          ) : (
                            <Badge tone="neutral">{partner.licenseLevel}</Badge>
                          )
                        }
                      />
                    </div>
                  ))}
                </div>
              </Card>
            )}
            {data.history.length > 0 ? (
              <>
                <SectionTitle>{t('expansion.history')}</SectionTitle>
                <Card flush>
                  {data.history.map((month) => (
                    <Row
                      key={month.month}
                      title={format.month(month.month)}
                      subtitle={`${t('expansion.pool')} ${format.usdt(month.pool)} · ${month.qualified ? t('expansion.qualified') : t('expansion.notQualified')}`}
                      end={<Usdt value={month.bonus} unit={false} />}
                    />
                  ))}
                </Card>
              </>
            ) : null}
          </>
        )}
      </QueryView>
    </Screen>
  );
};
