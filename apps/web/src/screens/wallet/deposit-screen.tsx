import { createWallet, getDepositAddress, MIN_DEPOSIT_USDT, USDT_TRC20_CONTRACT } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { walletErrorText } from '../../api/error-text';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { Notice } from '../../ui/notice';
import { Card, Screen } from '../../ui/screen';
import { KeyValue } from '../../ui/stat';
import { EmptyState, ErrorState, Skeleton } from '../../ui/states';

const CreateAddress = () => {
  const { t } = useTranslation();
  const create = useApiMutation(createWallet, {
    // docs/errors.md: the server's detail, then the message, then 'Unknown error'.
    onError: (error) => showToast(walletErrorText(error) ?? t('errors.unknown'), 'error'),
  });
  return (
    <Card>
      <EmptyState
        title={t('deposit.create')}
        text={t('deposit.createHint')}
        action={
          <Button busy={create.isPending} onClick={() => create.mutate({})}>
            {t('deposit.create')}
          </Button>
        }
      />
    </Card>
  );
};

/** Deposit: the user's USDT TRC20 address with what gets credited (≥ 11 USDT, USDT only). */
export const DepositScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const query = useApiQuery(getDepositAddress, {}, { retry: false });
  const missing = isApiError(query.error) && query.error.status === 404;
  return (
    <Screen back title={t('deposit.title')}>
      <Notice tone="warning">{t('deposit.minimum', { min: MIN_DEPOSIT_USDT })}</Notice>
      {query.isPending ? <Skeleton height={180} /> : null}
      {missing ? <CreateAddress /> : null}
      {query.isError && !missing ? (
        <Card title={t('deposit.address')}>
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        </Card>
      ) : null}
      {query.data ? (
        <>
          <Card title={t('deposit.address')}>
            <div className="address-box">
              <span className="mono" data-testid="deposit-address">
                {query.data.depositAddress}
              </span>
              <CopyButton text={query.data.depositAddress} />
            </div>
          </Card>
          <Card>
            <KeyValue label={t('deposit.network')} value={`${query.data.token} ${query.data.network}`} />
            <KeyValue
              label={t('deposit.minimumLabel')}
              value={`${format.usdt(query.data.minDeposit)} USDT`}
            />
            <KeyValue
              label={t('deposit.contract')}
              value={<span className="mono">{query.data.contract || USDT_TRC20_CONTRACT}</span>}
            />
          </Card>
          <Notice>{t('deposit.onlyUsdt')}</Notice>
          <p className="muted" style={{ fontSize: 13, margin: '0 4px' }}>
            {t('deposit.confirmations', { count: query.data.confirmations })}
          </p>
        </>
      ) : null}
    </Screen>
  );
};
