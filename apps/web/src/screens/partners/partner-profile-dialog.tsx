import { getPartnerProfile } from '@gridbot/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useBackLayer } from '../../shell/back-layers';
import { Badge } from '../../ui/badge';
import { CloseIcon } from '../../ui/icons';
import { Avatar } from '../../ui/list-row';
import { QueryView } from '../../ui/query-view';
import { KeyValue } from '../../ui/stat';
import { SkeletonRows } from '../../ui/states';
import { MeasuresCard } from './measures-card';

/**
 * A downline partner's card (POST /partners/my_partners/profile, docs/bonuses.md#structure): who
 * they are, their licence, team and this month's measures. A modal dialog over the list it was
 * opened from, so the list keeps its place and its loaded pages; Escape, Close or Telegram's
 * BackButton returns to it.
 */
export const PartnerProfileDialog = ({ uid, onClose }: { uid: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const ref = useRef<HTMLDialogElement>(null);
  const query = useApiQuery(getPartnerProfile, { query: { required_id: uid } }, { staleTime: 60_000 });
  // Telegram's BackButton closes the card, not the list under it.
  useBackLayer(onClose);
  // No close() on unmount: removing the element ends the modal state, and a close() there would
  // fire `close` (and onClose) when StrictMode runs the effect twice.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes a modal dialog natively; a tap on the backdrop is the pointer's way
    <dialog
      ref={ref}
      className="sheet"
      aria-label={t('partnerProfile.title')}
      data-testid="partner-profile"
      data-uid={uid}
      onClose={onClose}
      onClick={(event) => {
        // A tap on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="sheet__content">
        <div className="sheet__header">
          <span className="sheet__title">{t('partnerProfile.title')}</span>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <QueryView query={query} loading={<SkeletonRows rows={4} />} title={t('partnerProfile.title')}>
          {(partner) => (
            <>
              <div className="identity">
                <Avatar name={partner.firstName} />
                <div className="row__body">
                  <h2 className="identity__name">
                    {[partner.firstName, partner.lastName].filter(Boolean).join(' ')}
                  </h2>
                  <div className="muted">
                    {partner.username ? `@${partner.username} · ` : ''}
                    {t('common.uidValue', { uid: partner.uid })}
                  </div>
                </div>
                <Badge tone={partner.licenseActive ? 'accent' : 'neutral'}>{partner.licenseLevel}</Badge>
              </div>
              <div className="sheet__facts">
                <KeyValue
                  label={t('partnerProfile.line')}
                  value={t('partners.line', { line: partner.line })}
                />
                <KeyValue label={t('profile.registered')} value={format.date(partner.registeredAt)} />
                <KeyValue
                  label={t('partnerProfile.license')}
                  value={
                    partner.licenseActive
                      ? t('partnerProfile.activeUntil', { date: format.date(partner.licenseActiveUntil) })
                      : t('profile.expired')
                  }
                />
                <KeyValue
                  label={t('partnerProfile.trading')}
                  value={
                    <Badge tone={partner.trading ? 'positive' : 'neutral'}>
                      {partner.trading ? t('myPartners.trading') : t('myPartners.notTrading')}
                    </Badge>
                  }
                />
                <KeyValue label={t('partnerProfile.coins')} value={partner.coins} />
                <KeyValue
                  label={t('partnerProfile.directPartners')}
                  value={<span data-testid="partner-direct">{partner.directPartners}</span>}
                />
                <KeyValue
                  label={t('partnerProfile.teamSize')}
                  value={<span data-testid="partner-team">{partner.teamSize}</span>}
                />
                <KeyValue
                  label={t('profile.sponsor')}
                  value={
                    partner.sponsor
                      ? partner.sponsor.username
                        ? `@${partner.sponsor.username}`
                        : partner.sponsor.firstName
                      : t('profile.noSponsor')
                  }
                />
              </div>
              <MeasuresCard
                measures={partner.measures}
                title={t('partners.measures', { month: format.month(partner.month) })}
                heading={3}
              />
            </>
          )}
        </QueryView>
      </div>
    </dialog>
  );
};
