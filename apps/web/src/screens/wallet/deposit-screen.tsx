import { createWallet, getDepositAddress, getWallet, type ResponseOf } from '@gridbot/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { walletErrorText } from '../../api/error-text';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { Button } from '../../ui/button';
import { useCopy } from '../../ui/copy-button';
import { AlertIcon, CopyIcon } from '../../ui/icons';
import { Notice } from '../../ui/notice';
import { QrCode } from '../../ui/qr-code';
import { Card, Screen } from '../../ui/screen';
import { KeyValue } from '../../ui/stat';
import { Skeleton } from '../../ui/states';
import { ArrivingDeposits } from './arriving-deposits';
import { HashValue } from './hash-value';
import { WALLET_BUSY_REFRESH_MS } from './wallet-cache';
import { tronscanAddressUrl } from './wallet-model';

type Deposit = ResponseOf<typeof getDepositAddress>;

/** TRON makes a block every 3 s: the wait before a deposit is credited, in whole minutes. */
const minutesFor = (confirmations: number) => Math.max(1, Math.ceil((confirmations * 3) / 60));

/**
 * Deposit, create-wallet and address errors (docs/errors.md#client-texts): the server's detail, then
 * its message, then 'Unknown error'.
 */
const DepositProblem = ({ error, onRetry }: { error: unknown; onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <Card>
      <div className="state state--error" role="alert" data-state="error">
        <div className="state__icon">
          <AlertIcon />
        </div>
        <div className="state__title">{t('deposit.failed')}</div>
        <div className="state__text">{walletErrorText(error) ?? t('errors.unknown')}</div>
        <Button variant="secondary" small onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </div>
    </Card>
  );
};

const AddressCard = ({ deposit }: { deposit: Deposit }) => {
  const { t } = useTranslation();
  const address = deposit.depositAddress;
  const copy = useCopy();
  return (
    <Card>
      <div className="deposit-qr">
        <QrCode
          value={address}
          label={t('deposit.qrLabel')}
          mark={`${import.meta.env.BASE_URL}coins/usdt.svg`}
        />
      </div>
      <div className="deposit-network">
        <span className="badge">{t('deposit.networkBadge')}</span>
      </div>
      <div className="deposit-address">
        <div className="deposit-address__label">{t('deposit.address')}</div>
        {/* The ends in bold: a person checks the start and the end of a pasted address. */}
        <div className="deposit-address__value mono" data-testid="deposit-address">
          <b>{address.slice(0, 4)}</b>
          {address.slice(4, -4)}
          <b>{address.slice(-4)}</b>
        </div>
      </div>
      <Button block onClick={() => copy(address, t('deposit.copied'))}>
        <CopyIcon width={18} height={18} aria-hidden="true" />
        {t('deposit.copy')}
      </Button>
    </Card>
  );
};

const Terms = ({ deposit }: { deposit: Deposit }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Card>
      <KeyValue label={t('deposit.token')} value="USDT" />
      <KeyValue label={t('deposit.network')} value={t('deposit.networkValue')} />
      <KeyValue label={t('deposit.minimumLabel')} value={`${format.usdtExact(deposit.minDeposit)} USDT`} />
      {/* What happens below it, beside it (docs/wallet.md#deposits-under-the-minimum). */}
      <p className="terms-note">{t('deposit.minimum', { min: deposit.minDeposit })}</p>
      <KeyValue
        label={t('deposit.creditedAfter')}
        value={t('deposit.creditedAfterValue', {
          count: deposit.confirmations,
          minutes: minutesFor(deposit.confirmations),
        })}
      />
      {/* The token's contract, so a wallet's token can be checked: never an address to send to, so
          it is not copyable and says so (docs/wallet.md#refused-addresses). */}
      <KeyValue
        label={t('deposit.contract')}
        value={
          <HashValue
            value={deposit.contract}
            href={tronscanAddressUrl(deposit.contract)}
            label={t('deposit.contract')}
            copyable={false}
          />
        }
      />
      <p className="section-note" data-testid="contract-note">
        {t('deposit.contractNote')}
      </p>
    </Card>
  );
};

/** The address is made on the first visit: nobody comes here to be asked whether they want one. */
const useAddress = () => {
  // The address never changes once made; a refused (rate-limited) read is repeated by the client.
  const query = useApiQuery(getDepositAddress, {}, { staleTime: Number.POSITIVE_INFINITY });
  const create = useApiMutation(createWallet);
  const { mutate } = create;
  const missing = isApiError(query.error) && query.error.status === 404;
  const asked = useRef(false);
  useEffect(() => {
    if (!missing || asked.current) return;
    asked.current = true;
    mutate({});
  }, [missing, mutate]);
  return { query, create, missing };
};

/** Deposit: the user's USDT TRC20 address with its QR code, what gets credited, and deposits on their way. */
export const DepositScreen = () => {
  const { t } = useTranslation();
  const { query, create, missing } = useAddress();
  // Deposits on their way show up in the wallet's list: asked for while this screen is open.
  const wallet = useApiQuery(getWallet, INITIAL_INPUTS.wallet, { refetchInterval: WALLET_BUSY_REFRESH_MS });
  const creating = missing && !create.isError;
  return (
    <Screen back title={t('deposit.title')}>
      {query.isPending || (creating && !query.data) ? (
        <Card>
          <div aria-busy="true" className="deposit-loading">
            <Skeleton height={220} width={220} />
            {creating ? <p className="muted">{t('deposit.creating')}</p> : null}
            <Skeleton height={48} />
          </div>
        </Card>
      ) : null}
      {create.isError ? <DepositProblem error={create.error} onRetry={() => create.mutate({})} /> : null}
      {query.isError && !missing ? (
        <DepositProblem error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {query.data ? (
        <>
          <AddressCard deposit={query.data} />
          <div data-testid="deposit-warning">
            <Notice tone="warning">
              <p style={{ margin: 0 }}>{t('deposit.onlyUsdt')}</p>
            </Notice>
          </div>
          <Terms deposit={query.data} />
          {wallet.data ? <ArrivingDeposits wallet={wallet.data} /> : null}
        </>
      ) : null}
    </Screen>
  );
};
