import { type getProfile, type ResponseOf, renewLicense, updateLicense } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Row } from '../../ui/list-row';
import { MainAction } from '../../ui/main-action';
import { Usdt } from '../../ui/money';
import { Card, SectionTitle } from '../../ui/screen';
import { KeyValue } from '../../ui/stat';

type Profile = ResponseOf<typeof getProfile>;

/**
 * Current licence with its limits, renewal (−20 %) and the upgrade ladder: choosing an offer puts
 * "Upgrade to … · price" on the main action, which asks before the money moves.
 */
export const LicenseCard = ({ profile }: { profile: Profile }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const { license } = profile;
  const [chosen, setChosen] = useState<string | null>(null);
  const offer = profile.licenseOffers.find((entry) => entry.level === chosen && entry.available);
  const onError = (error: unknown) => showToast(errorText(error, 'tryLater'), 'error');
  const upgrade = useApiMutation(updateLicense, {
    onSuccess: (result) => {
      setChosen(null);
      showToast(t('profile.upgraded', { level: result.license.level }), 'success');
    },
    onError,
  });
  const renew = useApiMutation(renewLicense, {
    onSuccess: () => {
      showToast(t('profile.renewed'), 'success');
    },
    onError,
  });
  const askUpgrade = async (level: string, amount: string) => {
    const ok = await confirmAction({
      message: t('profile.confirmUpgrade', { level, amount: format.usdt(amount) }),
      confirmText: t('profile.toPay', { amount: format.usdt(amount) }),
    });
    if (ok) upgrade.mutate({ body: { level } });
  };
  const askRenew = async (amount: string) => {
    const ok = await confirmAction({
      message: t('profile.confirmRenew', { level: license.level, amount: format.usdt(amount) }),
      confirmText: t('profile.toPay', { amount: format.usdt(amount) }),
    });
    if (ok) renew.mutate({});
  };
  const choose = (level: string) => {
    feedback('selection');
    setChosen(level === chosen ? null : level);
  };
  return (
    <>
      <Card>
        <div className="status-line" style={{ marginBottom: 6 }}>
          <span className="mini-card__value">{license.level}</span>
          {license.expired ? (
            <Badge tone="negative">{t('profile.expired')}</Badge>
          ) : (
            <Badge tone="positive">{t('profile.daysLeft', { count: license.daysLeft })}</Badge>
          )}
        </div>
        <KeyValue label={t('profile.activeUntil')} value={format.date(license.activeUntil)} />
        <KeyValue label={t('profile.balanceLimit')} value={<Usdt value={license.balanceLimit} />} />
        <KeyValue
          label={t('profile.tradingPairs')}
          value={`${profile.tradingPairs.used} / ${profile.tradingPairs.limit}`}
        />
        <KeyValue label={t('profile.matching')} value={license.matchingGenerations} />
        {license.renewal.available && license.renewal.price ? (
          <Button
            block
            busy={renew.isPending}
            onClick={() => void askRenew(license.renewal.price ?? '0')}
            style={{ marginTop: 10 }}
          >
            {t('profile.renew', { pct: license.renewal.discountPct })} · {format.usdt(license.renewal.price)}{' '}
            USDT
          </Button>
        ) : null}
      </Card>
      <SectionTitle>{t('profile.offers')}</SectionTitle>
      <Card flush>
        {profile.licenseOffers.map((offer) => (
          <Row
            key={offer.level}
            title={offer.level}
            subtitle={`${t('profile.perYear', { price: format.amount(offer.yearlyPrice) })} · ${t('profile.offerLimits', { limit: format.amount(offer.balanceLimit), coins: offer.coins })}`}
            end={
              offer.current ? (
                <Badge>{t('profile.current')}</Badge>
              ) : offer.available ? (
                <Button
                  small
                  variant={offer.level === chosen ? 'primary' : 'secondary'}
                  aria-pressed={offer.level === chosen}
                  data-offer={offer.level}
                  onClick={() => choose(offer.level)}
                >
                  {t('profile.toPay', { amount: format.usdt(offer.priceToPay) })}
                </Button>
              ) : null
            }
          />
        ))}
      </Card>
      {offer ? (
        <MainAction
          text={t('profile.payFor', { level: offer.level, amount: format.usdt(offer.priceToPay) })}
          busy={upgrade.isPending}
          onClick={() => void askUpgrade(offer.level, offer.priceToPay)}
        />
      ) : null}
    </>
  );
};
