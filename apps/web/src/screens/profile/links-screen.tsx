import { getReferralLink } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useSupportUrl } from '../../shell/support-url';
import { openExternal } from '../../telegram/links';
import { CopyButton } from '../../ui/copy-button';
import { SupportIcon } from '../../ui/icons';
import { ButtonRow, IconAvatar } from '../../ui/list-row';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { ShareButton } from '../../ui/share-button';
import { Skeleton } from '../../ui/states';

/** Links: the user's referral links (the only way to register) and support. */
export const LinksScreen = () => {
  const { t } = useTranslation();
  const query = useApiQuery(getReferralLink, {}, { retry: false, staleTime: Number.POSITIVE_INFINITY });
  const supportUrl = useSupportUrl();
  return (
    <Screen back title={t('links.title')}>
      <SectionTitle>{t('links.referral')}</SectionTitle>
      <QueryView query={query} loading={<Skeleton height={160} />}>
        {(links) => (
          <Card>
            <p className="muted" style={{ marginBottom: 10, fontSize: 13.5 }}>
              {t('links.referralHint')}
            </p>
            <div className="field__label">{t('links.miniApp')}</div>
            <div className="address-box" style={{ margin: '6px 0 12px' }}>
              <span className="mono" data-testid="mini-app-link">
                {links.miniAppLink}
              </span>
              <CopyButton text={links.miniAppLink} />
            </div>
            <div className="field__label">{t('links.bot')}</div>
            <div className="address-box" style={{ margin: '6px 0 14px' }}>
              <span className="mono" data-testid="bot-link">
                {links.botLink}
              </span>
              <CopyButton text={links.botLink} />
            </div>
            <ShareButton url={links.miniAppLink} text={links.shareText}>
              {t('links.shareInvite')}
            </ShareButton>
          </Card>
        )}
      </QueryView>
      <SectionTitle>{t('links.support')}</SectionTitle>
      <Card flush>
        <ButtonRow
          onClick={() => {
            if (supportUrl) openExternal(supportUrl);
          }}
          start={
            <IconAvatar>
              <SupportIcon />
            </IconAvatar>
          }
          title={t('links.write')}
          subtitle={t('links.supportText')}
        />
      </Card>
    </Screen>
  );
};
