import { getRewards } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { PartnersIcon } from '../../shell/tab-icons';
import { GiftIcon, TreeIcon } from '../../ui/icons';
import { IconAvatar, LinkRow, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState, Skeleton } from '../../ui/states';

const PERIODS = ['today', 'yesterday', 'current_month', 'last_month', 'all'] as const;
type Period = (typeof PERIODS)[number];

/** My rewards for a period (docs/product.md#limits: default today): totals by bonus kind and per day. */
export const MyRewardsScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [period, setPeriod] = useState<Period>('today');
  const query = useApiQuery(getRewards, { query: { period } });
  const kinds = [
    {
      to: '/partners/my-rewards/referal-bonus',
      label: t('rewards.referral'),
      Icon: GiftIcon,
      key: 'referral',
    },
    {
      to: '/partners/my-rewards/matching-bonus',
      label: t('rewards.matching'),
      Icon: PartnersIcon,
      key: 'matching',
    },
    {
      to: '/partners/my-rewards/network-expansion-bonus',
      label: t('rewards.networkExpansion'),
      Icon: TreeIcon,
      key: 'networkExpansion',
    },
  ] as const;
  return (
    <Screen back title={t('rewards.title')}>
      <div className="reward-periods">
        <Segmented
          grid
          label={t('rewards.period')}
          value={period}
          onChange={setPeriod}
          options={PERIODS.map((value) => ({ value, label: t(`rewards.periods.${value}`) }))}
        />
      </div>
      <QueryView query={query} loading={<Skeleton height={120} />} title={t('rewards.total')}>
        {(rewards) => (
          <div className="hero">
            <div className="hero__label">{t('rewards.total')}</div>
            <div className="hero__value" data-testid="rewards-period-total">
              <Usdt value={rewards.total} />
            </div>
            <div className="hero__row">
              <span>
                {rewards.range.from && rewards.range.from !== rewards.range.to
                  ? `${format.date(rewards.range.from)} – `
                  : ''}
                {rewards.range.from === null ? `${t('rewards.periods.all')} · ` : ''}
                {format.date(rewards.range.to)}
              </span>
            </div>
          </div>
        )}
      </QueryView>
      <Card flush>
        {kinds.map(({ to, label, Icon, key }) => (
          <LinkRow
            key={to}
            link={{ to }}
            start={
              <IconAvatar>
                <Icon />
              </IconAvatar>
            }
            title={label}
            end={
              query.data ? (
                <span data-kind={key}>
                  <Usdt value={query.data[key]} unit={false} />
                </span>
              ) : undefined
            }
          />
        ))}
      </Card>
      {query.data ? (
        <>
          <SectionTitle>{t('rewards.byDay')}</SectionTitle>
          {query.data.days.length === 0 ? (
            <Card>
              <EmptyState title={t('rewards.empty')} />
            </Card>
          ) : (
            <Card flush>
              {query.data.days.map((day) => (
                <Row
                  key={day.date}
                  title={format.date(day.date)}
                  subtitle={[
                    `${t('rewards.referralShort')} ${format.usdt(day.referral)}`,
                    `${t('rewards.matchingShort')} ${format.usdt(day.matching)}`,
                    signOf(day.networkExpansion) === 'zero'
                      ? ''
                      : `${t('rewards.networkExpansionShort')} ${format.usdt(day.networkExpansion)}`,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  end={<Usdt value={day.total} unit={false} />}
                />
              ))}
            </Card>
          )}
        </>
      ) : null}
    </Screen>
  );
};
