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
import { Notice } from '../../ui/notice';
import { Card, SectionTitle } from '../../ui/screen';
import { KeyValue } from '../../ui/stat';

type Profile = ResponseOf<typeof getProfile>;

/** A refused payment, shown under the action that was refused (docs/licences.md#upgrade). */
const Refusal = ({ error, testId }: { error: unknown; testId: string }) => {
  const errorText = useActionError();
  return (
    <div data-testid={testId}>
      <Notice tone="warning">{errorText(error, 'tryLater')}</Notice>
    </div>
  );
};

/**
 * Renewal for a year at −20 % in the last 30 days of a paid licence, and only then
 * (docs/licences.md#renewal): before, the day it opens; after the end, the levels below are bought
 * again at the full price.
 */
const Renewal = ({ profile }: { profile: Profile }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { license } = profile;
  const renew = useApiMutation(renewLicense, {
    onSuccess: (result) => {
      feedback('success');
      showToast(t('profile.renewed', { date: format.date(result.license.activeUntil) }), 'success');
    },
    onError: () => feedback('error'),
  });
  const { renewal } = license;
  if (!license.paid) return <p className="license-hint">{t('profile.freeNoRenewal')}</p>;
  if (license.expired) {
    return (
      <p className="license-hint" data-testid="renewal-closed">
        {t('profile.renewalClosed', { level: license.level })}
      </p>
    );
  }
  if (!renewal.available || !renewal.price) {
    return (
      <p className="license-hint" data-testid="renewal-opens">
        {t('profile.renewalOpens', {
          date: renewal.availableFrom ? format.date(renewal.availableFrom) : '—',
          pct: renewal.discountPct,
        })}
      </p>
    );
  }
  const price = renewal.price;
  const ask = async () => {
    renew.reset();
    const ok = await confirmAction({
      title: t('profile.renewTitle'),
      message: t('profile.confirmRenew', {
        level: license.level,
        amount: format.usdtExact(price),
        date: renewal.newActiveUntil ? format.date(renewal.newActiveUntil) : '—',
      }),
      confirmText: t('profile.toPay', { amount: format.usdtExact(price) }),
    });
    if (ok) renew.mutate({});
  };
  return (
    <div className="license-actions">
      <p className="license-hint">{t('profile.renewalOpen', { date: format.date(license.activeUntil) })}</p>
      <Button block busy={renew.isPending} onClick={() => void ask()} data-testid="renew">
        {t('profile.renew', { pct: renewal.discountPct, amount: format.usdtExact(price) })}
      </Button>
      {renew.isError ? <Refusal error={renew.error} testId="renew-refusal" /> : null}
    </div>
  );
};

/**
 * The licence with its limits, renewal (−20 %) and the upgrade ladder: choosing an offer puts
 * "Upgrade to … · price" on the main action, which asks, stating the price, before the money moves.
 * Once a paid licence has expired every paid level is offered again, the current one too ("Buy …").
 * A refusal (not enough money, …) is shown in place, in the user's language, by its code.
 */
export const LicenseCard = ({ profile }: { profile: Profile }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { license } = profile;
  const [chosen, setChosen] = useState<string | null>(null);
  const offer = profile.licenseOffers.find((entry) => entry.level === chosen && entry.available);
  const upgrade = useApiMutation(updateLicense, {
    onSuccess: (result) => {
      setChosen(null);
      feedback('success');
      showToast(
        result.license.rank > license.rank
          ? t('profile.upgraded', { level: result.license.level })
          : t('profile.bought', {
              level: result.license.level,
              date: format.date(result.license.activeUntil),
            }),
        'success',
      );
    },
    onError: () => feedback('error'),
  });
  // Above the current rank an upgrade; the same or a lower one, after an expiry, a new purchase.
  const isUpgrade = (rank: number) => rank > license.rank;
  const askUpgrade = async (level: string, rank: number, amount: string) => {
    upgrade.reset();
    const ok = await confirmAction({
      title: isUpgrade(rank) ? t('profile.upgradeTitle') : t('profile.buyTitle'),
      message: isUpgrade(rank)
        ? t('profile.confirmUpgrade', { level, amount: format.usdtExact(amount) })
        : t('profile.confirmBuy', { level, amount: format.usdtExact(amount) }),
      confirmText: t('profile.toPay', { amount: format.usdtExact(amount) }),
    });
    if (ok) upgrade.mutate({ body: { level } });
  };
  const choose = (level: string) => {
    feedback('selection');
    upgrade.reset();
    setChosen(level === chosen ? null : level);
  };
  const sponsor = profile.sponsor;
  return (
    <>
      <Card>
        <div className="status-line" style={{ marginBottom: 6 }} data-testid="license-level">
          <span className="mini-card__value">{license.level}</span>
          {license.expired ? (
            <Badge tone="negative">{t('profile.expired')}</Badge>
          ) : (
            <Badge tone="positive">
              <span data-testid="days-left">{t('profile.daysLeft', { count: license.daysLeft })}</span>
            </Badge>
          )}
        </div>
        <KeyValue label={t('profile.uid')} value={<span className="mono">{profile.uid}</span>} />
        <KeyValue label={t('profile.registered')} value={format.date(profile.registeredAt)} />
        <KeyValue
          label={t('profile.activeUntil')}
          value={<span data-testid="active-until">{format.date(license.activeUntil)}</span>}
        />
        <KeyValue label={t('profile.balanceLimit')} value={<Usdt value={license.balanceLimit} />} />
        <KeyValue
          label={t('profile.tradingPairs')}
          value={`${profile.tradingPairs.used} / ${profile.tradingPairs.limit}`}
        />
        <KeyValue label={t('profile.matching')} value={license.matchingGenerations} />
        <KeyValue
          label={t('profile.sponsor')}
          value={
            sponsor
              ? `${sponsor.username ? `@${sponsor.username}` : sponsor.firstName} · ${t('common.uidValue', { uid: sponsor.uid })}`
              : t('profile.noSponsor')
          }
        />
        <Renewal profile={profile} />
      </Card>
      <SectionTitle>{t('profile.offers')}</SectionTitle>
      <Card flush>
        {profile.licenseOffers.map((entry) => (
          <div key={entry.level} data-offer-row={entry.level}>
            <Row
              title={entry.level}
              subtitle={
                <>
                  {t('profile.perYear', { price: format.usdtExact(entry.yearlyPrice) })}
                  <br />
                  {t('profile.offerLimits', {
                    limit: format.usdt(entry.balanceLimit),
                    count: entry.coins,
                    generations: entry.matchingGenerations,
                  })}
                </>
              }
              end={entry.current ? <Badge>{t('profile.current')}</Badge> : null}
            />
            {/* Under the row, not beside it: the limits keep the whole width in every language. */}
            {entry.available ? (
              <div className="offer-pay">
                <Button
                  small
                  variant={entry.level === chosen ? 'primary' : 'secondary'}
                  aria-pressed={entry.level === chosen}
                  data-offer={entry.level}
                  onClick={() => choose(entry.level)}
                >
                  {t('profile.toPay', { amount: format.usdtExact(entry.priceToPay) })}
                </Button>
              </div>
            ) : null}
          </div>
        ))}
      </Card>
      {upgrade.isError ? <Refusal error={upgrade.error} testId="upgrade-refusal" /> : null}
      {offer ? (
        <MainAction
          text={t(isUpgrade(offer.rank) ? 'profile.payFor' : 'profile.buyFor', {
            level: offer.level,
            amount: format.usdtExact(offer.priceToPay),
          })}
          busy={upgrade.isPending}
          onClick={() => void askUpgrade(offer.level, offer.rank, offer.priceToPay)}
        />
      ) : null}
    </>
  );
};
