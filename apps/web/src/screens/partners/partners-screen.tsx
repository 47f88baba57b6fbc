import {
  getPartnersOverview,
  getReferralLink,
  REFERRAL_BONUS_PCTS,
  type ResponseOf,
} from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { PartnersIcon } from '../../shell/tab-icons';
import { Badge } from '../../ui/badge';
import { CopyButton } from '../../ui/copy-button';
import { GiftIcon, LinkIcon, TreeIcon } from '../../ui/icons';
import { Avatar, IconAvatar, LinkRow, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { Progress } from '../../ui/progress';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { ShareButton } from '../../ui/share-button';
import { Stat, Stats } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { MeasuresCard } from './measures-card';

type Overview = ResponseOf<typeof getPartnersOverview>;

/** Rewards of all time with today and this month; the whole card opens My rewards. */
const RewardsHero = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  return (
    <Link to="/partners/my-rewards" className="hero hero--link" data-testid="rewards-hero">
      <div className="hero__label">
        {t('partners.rewards')} · {t('partners.allTime')}
      </div>
      <div className="hero__value" data-testid="rewards-total">
        <Usdt value={overview.rewards.total} />
      </div>
      <div className="hero__row">
        <span>
          {t('partners.today')}
          <b data-testid="rewards-today">
            <Usdt value={overview.rewards.today} />
          </b>
        </span>
        <span>
          {t('partners.thisMonth')}
          <b data-testid="rewards-month">
            <Usdt value={overview.rewards.currentMonth} />
          </b>
        </span>
      </div>
    </Link>
  );
};

/** The referral link with copy and share (the invitation text comes from the server, in the user's language). */
const ReferralLinkCard = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const links = useApiQuery(getReferralLink, {}, { retry: false, staleTime: Number.POSITIVE_INFINITY });
  return (
    <Card title={t('partners.referralLink')}>
      <div className="address-box">
        <span className="mono" data-testid="referral-link">
          {overview.referralLink}
        </span>
        <CopyButton text={overview.referralLink} label={t('partners.copyLink')} />
      </div>
      <p className="muted partner-note">
        {t('partners.bonusLevels', {
          line1: REFERRAL_BONUS_PCTS[0],
          line2: REFERRAL_BONUS_PCTS[1],
          line3: REFERRAL_BONUS_PCTS[2],
        })}
      </p>
      {links.data ? (
        <ShareButton url={links.data.miniAppLink} text={links.data.shareText}>
          {t('links.shareInvite')}
        </ShareButton>
      ) : null}
    </Card>
  );
};

const Team = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { team, ranking } = overview;
  return (
    <Card title={t('partners.team')}>
      <Stats columns={3}>
        {([1, 2, 3] as const).map((line) => (
          <Stat
            key={line}
            label={t('partners.line', { line })}
            value={<span data-testid={`team-line${line}`}>{team[`line${line}`]}</span>}
          />
        ))}
      </Stats>
      {team.total === 0 ? <p className="muted partner-note">{t('structure.empty')}</p> : null}
      <div className="status-line partner-total">
        <span>{t('partners.total')}</span>
        <b data-testid="team-total">{team.total}</b>
      </div>
      <div className="status-line partner-ranking">
        <b>{t('partners.ranking')}</b>
        <Badge tone={ranking.qualified ? 'positive' : 'neutral'}>
          {ranking.qualified ? t('partners.qualified') : t('partners.notQualified')}
        </Badge>
      </div>
      <Progress value={ranking.newPro1Partners} max={ranking.required} label={t('partners.ranking')} />
      <p className="muted partner-note" data-testid="ranking-progress">
        {t('partners.rankingProgress', {
          count: ranking.newPro1Partners,
          required: ranking.required,
          month: format.month(ranking.month),
        })}
      </p>
    </Card>
  );
};

const Sponsor = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const sponsor = overview.sponsor;
  return (
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
  );
};

const Overview = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <RewardsHero overview={overview} />
      <ReferralLinkCard overview={overview} />
      <Team overview={overview} />
      <SectionTitle>{t('partners.sponsor')}</SectionTitle>
      <Sponsor overview={overview} />
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
  const team = query.data?.team.total;
  return (
    <Screen title={t('partners.title')}>
      <QueryView
        query={query}
        loading={
          <div aria-busy="true">
            <Skeleton height={128} />
            <div style={{ height: 12 }} />
            <Skeleton height={150} />
          </div>
        }
        title={t('partners.programme')}
      >
        {(overview) => <Overview overview={overview} />}
      </QueryView>
      <SectionTitle>{t('partners.programme')}</SectionTitle>
      <Card flush>
        <LinkRow
          link={{ to: '/partners/my-partners' }}
          start={
            <IconAvatar>
              <PartnersIcon />
            </IconAvatar>
          }
          title={t('partners.myPartners')}
          end={team === undefined ? undefined : <Badge tone="neutral">{team}</Badge>}
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
        <LinkRow
          link={{ to: '/links' }}
          start={
            <IconAvatar>
              <LinkIcon />
            </IconAvatar>
          }
          title={t('links.title')}
        />
      </Card>
    </Screen>
  );
};
