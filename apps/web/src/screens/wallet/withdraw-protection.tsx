import { freezeWithdrawals, liftFreeze } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { compareDecimals } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { KeyValue } from '../../ui/stat';
import type { Wallet } from './wallet-cache';

/**
 * What protects a user's money on the wallet screens (docs/wallet.md#protections): the freeze
 * ("this wasn't me"), the lock of a new address, and the day's allowance beyond which a withdrawal
 * waits for a review. Times are the reader's local ones.
 */

const isFuture = (iso: string | null | undefined): iso is string =>
  !!iso && new Date(iso).getTime() > Date.now();

/** Frozen: since when, from when the user may lift it, and the button once they may. */
export const FrozenBanner = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const lift = useApiMutation(liftFreeze, {
    onSuccess: () => feedback('success'),
    onError: () => feedback('error'),
  });
  if (!wallet.frozen) return null;
  const early = isFuture(wallet.frozen.liftableFrom);
  return (
    <div data-testid="withdrawals-frozen">
      <Notice tone="warning">
        <p style={{ margin: 0 }}>
          <b>{t('protection.frozenTitle')}</b>{' '}
          {t('protection.frozenText', { since: format.dateTime(wallet.frozen.since) })}
        </p>
        <p style={{ margin: '6px 0 0' }}>
          {early
            ? t('protection.liftFrom', { at: format.dateTime(wallet.frozen.liftableFrom) })
            : t('protection.liftNow')}
        </p>
        {lift.isError ? <p style={{ margin: '6px 0 0' }}>{errorText(lift.error, 'tryLater')}</p> : null}
      </Notice>
      {early ? null : (
        <Button variant="secondary" block disabled={lift.isPending} onClick={() => lift.mutate({})}>
          {t('protection.lift')}
        </Button>
      )}
    </div>
  );
};

/** "This wasn't me": freezes withdrawals after a confirmation that says what it does. */
export const FreezeButton = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const freeze = useApiMutation(freezeWithdrawals, {
    onSuccess: () => feedback('success'),
    onError: () => feedback('error'),
  });
  if (wallet.frozen) return null;
  const submit = async () => {
    const ok = await confirmAction({
      title: t('protection.freezeTitle'),
      message: t('protection.freezeConfirm'),
      confirmText: t('protection.freeze'),
    });
    if (ok) freeze.mutate({});
  };
  return (
    <div className="freeze-action" data-testid="freeze-withdrawals">
      <Button variant="ghost" block disabled={freeze.isPending} onClick={() => void submit()}>
        {t('protection.freezeButton')}
      </Button>
      <p className="section-note">{t('protection.freezeHint')}</p>
      {freeze.isError ? <Notice tone="warning">{errorText(freeze.error, 'tryLater')}</Notice> : null}
    </div>
  );
};

/** The saved address is new: usable from when. */
export const AddressLockNotice = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  if (!wallet.withdrawAddress || !isFuture(wallet.withdrawAddressUsableFrom)) return null;
  return (
    <div data-testid="address-locked">
      <Notice tone="warning">
        {t('protection.addressLocked', { at: format.dateTime(wallet.withdrawAddressUsableFrom) })}
      </Notice>
    </div>
  );
};

/**
 * The day's allowance and, for the amount typed, whether it goes without a review; approved ones
 * leave after the release delay, during which a freeze still stops them.
 */
export const AllowanceSummary = ({ wallet, amount }: { wallet: Wallet; amount: string | null }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const review = amount !== null && compareDecimals(amount, wallet.allowance.left) > 0;
  return (
    <div data-testid="withdraw-allowance">
      <KeyValue
        label={t('protection.allowanceLeft')}
        value={`${format.usdtExact(wallet.allowance.left)} / ${format.usdtExact(wallet.allowance.limit)} USDT`}
      />
      {review ? (
        <div data-testid="withdraw-review">
          <Notice>{t('protection.willWait')}</Notice>
        </div>
      ) : wallet.releaseDelayS > 0 ? (
        <p className="section-note">
          {t('protection.releaseNote', { minutes: Math.max(1, Math.round(wallet.releaseDelayS / 60)) })}
        </p>
      ) : null}
    </div>
  );
};
