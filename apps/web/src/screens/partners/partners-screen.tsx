import { getPartnersOverview, type ResponseOf } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-load';
import { PartnersIcon } from '../../shell/tab-icons';
import { Badge } from '../../ui/badge';
import { CopyButton } from '../../ui/copy-button';
import { GiftIcon, TreeIcon } from '../../ui/icons';
import { Avatar, IconAvatar, LinkRow, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { Progress } from '../../ui/progress';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Stat, Stats } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { MeasuresCard } from './measures-card';

type Overview = ResponseOf<typeof getPartnersOverview>;

const RewardsHero = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  return (
    <div className="hero">
      <div className="hero__label">
        {t('partners.rewards')} · {t('partners.allTime')}
      </div>
      <div className="hero__value">
        <Usdt value={overview.rewards.total} />
      </div>
      <div className="hero__row">
        <span>
          {t('partners.today')}
          <b>
            <Usdt value={overview.rewards.today} />
          </b>
        </span>
        <span>
          {t('partners.thisMonth')}
          <b>
            <Usdt value={overview.rewards.currentMonth} />
          </b>
        </span>
      </div>
    </div>
  );
};

const Team = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const { team, ranking } = overview;
  return (
    <Card title={t('partners.team')}>
      <Stats>
        <Stat label={t('partners.line', { line: 1 })} value={team.line1} />
        <Stat label={t('partners.line', { line: 2 })} value={team.line2} />
        <Stat label={t('partners.line', { line: 3 })} value={team.line3} />
        <Stat label={t('partners.total')} value={team.total} />
      </Stats>
      <div className="status-line" style={{ margin: '16px 0 8px' }}>
        <b>{t('partners.ranking')}</b>
        <Badge tone={ranking.qualified ? 'positive' : 'neutral'}>
          {ranking.qualified ? t('partners.qualified') : t('partners.notQualified')}
        </Badge>
      </div>
      <Progress value={ranking.newPro1Partners} max={ranking.required} label={t('partners.ranking')} />
      <p className="muted" style={{ fontSize: 13, marginTop: 6 }}>
        {t('partners.rankingProgress', { count: ranking.newPro1Partners, required: ranking.required })}
      </p>
    </Card>
  );
};

const Overview = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const sponsor = overview.sponsor;
  return (
    <>
      <RewardsHero overview={overview} />
      <Card title={t('partners.referralLink')}>
        <div className="address-box">
          <span className="mono">{overview.referralLink}</span>
          <CopyButton text={overview.referralLink} />
        </div>
        <p className="muted" style={{ fontSize: 12.5, marginTop: 8 }}>
          {t('partners.bonusLevels')}
        </p>
      </Card>
      <Team overview={overview} />
      <SectionTitle>{t('partners.sponsor')}</SectionTitle>
      <Card flush>
        {sponsor ? (
          <Row
            start={<Avatar name={sponsor.firstName} />}
            title={sponsor.firstName}
            subtitle={`${sponsor.username ? `@${sponsor.username} · ` : ''}${t('common.uidValue', { uid: sponsor.uid })}`}
            end={<Badge>{sponsor.licenseLevel}</Badge>}
          />
        ) : (
          <Row title={t('partners.noSponsor')} />
        )}
      </Card>
      <MeasuresCard
        measures={overview.measures}
        title={t('partners.measures', { month: format.month(overview.month) })}
      />
    </>
  );
};

/** Partners tab: rewards, referral link, team, ranking, sponsor and the month's measures. */
export const PartnersScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getPartnersOverview, INITIAL_INPUTS.partners);
  return (
    <Screen title={t('partners.title')}>
      <Card flush>
        <LinkRow
          link={{ to: '/partners/my-partners' }}
          start={
            <IconAvatar>
              <PartnersIcon />
            </IconAvatar>
          }
          title={t('partners.myPartners')}
        />
        <LinkRow
          link={{ to: '/partners/my-partners/structure' }}
          start={
            <IconAvatar>
              <TreeIcon />
            </IconAvatar>
          }
          title={t('partners.structure')}
        />
        <LinkRow
          link={{ to: '/partners/my-rewards' }}
          start={
            <IconAvatar>
              <GiftIcon />
            </IconAvatar>
          }
          title={t('partners.myRewards')}
        />
      </Card>
      <QueryView query={query} loading={<Skeleton height={160} />} title={t('partners.programme')}>
        {(overview) => <Overview overview={overview} />}
      </QueryView>
    </Screen>
  );
};
