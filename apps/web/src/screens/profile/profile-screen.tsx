import { getProfile, type ResponseOf } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { useSessionUser } from '../../session/use-session-user';
import { Badge } from '../../ui/badge';
import { ChartIcon, KeyIcon, LinkIcon } from '../../ui/icons';
import { Avatar, IconAvatar, LinkRow } from '../../ui/list-row';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Skeleton } from '../../ui/states';
import { LanguageCard } from './language-card';
import { LicenseCard } from './license-card';
import { NotificationsCard } from './notifications-card';
import { SessionsCard } from './sessions-card';

type Profile = ResponseOf<typeof getProfile>;

const Identity = () => {
  const { t } = useTranslation();
  const user = useSessionUser();
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  return (
    <Card>
      <div className="identity">
        <Avatar name={name} />
        <div className="row__body">
          <div className="identity__name">{name}</div>
          <div className="muted">
            @{user.username} · {t('common.uidValue', { uid: user.uid })}
          </div>
        </div>
      </div>
    </Card>
  );
};

const ApiKeys = ({ profile }: { profile: Profile }) => {
  const { t } = useTranslation();
  const keys = profile.apiKey;
  return (
    <Card flush>
      <LinkRow
        link={{ to: '/profile/api-key' }}
        start={
          <IconAvatar>
            <KeyIcon />
          </IconAvatar>
        }
        title={keys ? `${keys.exchange.toUpperCase()} · ${keys.apiKeyMasked}` : t('profile.noKeys')}
        subtitle={keys ? undefined : t('profile.connectKeys')}
        end={
          keys ? (
            <Badge tone={keys.connected ? 'positive' : 'negative'}>
              {keys.connected ? t('profile.connected') : t('profile.notConnected')}
            </Badge>
          ) : undefined
        }
      />
    </Card>
  );
};

/** Profile: identity, language, licence, API keys, notifications, links and signing out everywhere. */
export const ProfileScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getProfile, INITIAL_INPUTS.profile);
  return (
    <Screen title={t('profile.title')}>
      <Identity />
      <LanguageCard />
      <QueryView
        query={query}
        loading={
          <div className="card" aria-busy="true">
            <Skeleton height={220} />
          </div>
        }
        title={t('profile.license')}
      >
        {(profile) => (
          <>
            <SectionTitle>{t('profile.license')}</SectionTitle>
            <LicenseCard profile={profile} />
            <SectionTitle>{t('profile.apiKeys')}</SectionTitle>
            <ApiKeys profile={profile} />
            <NotificationsCard settings={profile.notifications} />
          </>
        )}
      </QueryView>
      <Card flush>
        <LinkRow
          link={{ to: '/links' }}
          start={
            <IconAvatar>
              <LinkIcon />
            </IconAvatar>
          }
          title={t('profile.links')}
        />
        <LinkRow
          link={{ to: '/pnl-stat' }}
          start={
            <IconAvatar>
              <ChartIcon />
            </IconAvatar>
          }
          title={t('profile.pnlStats')}
        />
      </Card>
      <SessionsCard />
    </Screen>
  );
};
