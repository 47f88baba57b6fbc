import { checkKeys, type ErrorCode, type Exchange, saveApiKey } from '@gridbot/contracts';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { useActionError, useCatalogueText } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { EXCHANGE_NAMES, EXCHANGES } from '../../format/exchange-name';
import { useFormat } from '../../format/use-format';
import {
  apiKeyProblem as checkApiKey,
  passphraseProblem as checkPassphrase,
  secretKeyProblem as checkSecretKey,
} from '../../forms/api-key-form';
import { useProblemText } from '../../forms/use-problem-text';
import { showToast } from '../../shell/toast-store';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { Badge } from '../../ui/badge';
import { CopyButton } from '../../ui/copy-button';
import { Field } from '../../ui/field';
import { MainAction } from '../../ui/main-action';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Card, Screen } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { KeyValue } from '../../ui/stat';

/** Why and how to bind the key to this installation's IPs, in each exchange's own terms. */
const EGRESS_HINTS = {
  binance: 'apiKey.egressHint',
  bybit: 'apiKey.egressHintBybit',
  okx: 'apiKey.egressHintOkx',
} as const satisfies Record<Exchange, string>;

/** Connect exchange API keys: spot trading on, withdrawals off; the secret is never shown again. */
export const ApiKeyScreen = () => {
  const { t } = useTranslation();
  const catalogueText = useCatalogueText();
  const format = useFormat();
  const navigate = useNavigate();
  const problemText = useProblemText();
  const errorText = useActionError();
  // The exchange of the keys saved first until the user picks another (Binance without keys):
  // a user may hold keys on each exchange (docs/grid.md#coins-on-several-exchanges).
  const [picked, setExchange] = useState<Exchange | null>(null);
  // A live check on the exchange: the saved keys (masked), whether they work, the free USDT.
  const check = useApiQuery(checkKeys, { query: picked ? { exchange: picked } : {} });
  const exchange: Exchange = picked ?? check.data?.exchange ?? 'binance';
  const connectedTo = check.data?.accounts ?? [];
  const [apiKey, setApiKey] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [secretKey, setSecretKey] = useState('');
  const [touched, setTouched] = useState(false);
  // Keys of another exchange account while coins have open deals: the server said what happens
  // (API_KEY_OTHER_ACCOUNT); the next save confirms it (docs/grid.md#replacing-api-keys).
  const [otherAccount, setOtherAccount] = useState(false);
  const apiKeyProblem = checkApiKey(apiKey, exchange);
  const secretProblem = checkSecretKey(secretKey, exchange);
  // OKX keys carry a third credential, the passphrase chosen when the key was created.
  const needsPassphrase = exchange === 'okx';
  const passphraseProblem = checkPassphrase(passphrase, exchange);
  useClosingConfirmation(apiKey.trim() !== '' || secretKey.trim() !== '' || passphrase !== '');
  const save = useApiMutation(saveApiKey, {
    onSuccess: () => {
      showToast(t('apiKey.saved'), 'success');
      void navigate({ to: '/profile' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'API_KEY_OTHER_ACCOUNT') setOtherAccount(true);
    },
  });
  // A refusal stays in the form, with its own cause (the code's text: a wrong key or secret, an IP
  // the key does not accept, trading off or expired, withdrawals on, the exchange not answering),
  // until the keys are typed again (docs/security.md#exchange-keys).
  const refusal = save.error && save.error.code !== 'API_KEY_OTHER_ACCOUNT' ? save.error : null;
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOtherAccount(false);
    save.reset();
  };
  const egress = check.data?.egress;
  // The shown check is the picked exchange's (not the previous one's while it loads).
  const shown = check.data && (check.data.exchange ?? 'binance') === exchange ? check.data : undefined;
  const current = shown?.key ?? null;
  const problem = shown?.problem ?? null;
  return (
    <Screen back title={t('apiKey.title')}>
      <Notice>{t('apiKey.hint')}</Notice>
      <Card>
        <Segmented
          label={t('apiKey.exchange')}
          value={exchange}
          options={EXCHANGES.map((value) => ({
            value,
            label: EXCHANGE_NAMES[value],
          }))}
          onChange={(value) => {
            setExchange(value);
            setTouched(false);
            setOtherAccount(false);
            save.reset();
          }}
        />
        {connectedTo.length > 0 ? (
          <p className="muted" style={{ margin: '10px 0 0', fontSize: 13.5 }} data-testid="api-key-accounts">
            {t('apiKey.connectedTo', { exchanges: connectedTo.map((e) => EXCHANGE_NAMES[e]).join(', ') })}
          </p>
        ) : null}
      </Card>
      {problem && problem !== 'NO_API_KEYS' ? (
        <Notice tone="warning">
          {catalogueText(problem as ErrorCode)}
          {/* Bybit's and OKX's deposits land in the Funding account, which the bot does not trade from. */}
          {problem === 'EXCHANGE_BALANCE_ZERO' && exchange !== 'binance' ? (
            <span data-testid="api-key-funding-hint"> {t(`apiKey.fundingHint.${exchange}`)}</span>
          ) : null}
        </Notice>
      ) : null}
      {current ? (
        <Card title={t('apiKey.current')}>
          <KeyValue
            label={t('apiKey.status')}
            value={
              <Badge tone={shown?.connected ? 'positive' : 'negative'}>
                {shown?.connected ? t('apiKey.connected') : t('apiKey.notConnected')}
              </Badge>
            }
          />
          {shown?.usdtBalance != null ? (
            <KeyValue label={t('apiKey.usdtBalance')} value={<Usdt value={shown.usdtBalance} />} />
          ) : null}
          <KeyValue label={t('apiKey.exchange')} value={EXCHANGE_NAMES[current.exchange]} />
          <KeyValue label={t('apiKey.apiKey')} value={<span className="mono">{current.apiKeyMasked}</span>} />
          <KeyValue
            label={t('apiKey.secretKey')}
            value={<span className="mono">{current.secretKeyMasked}</span>}
          />
          <KeyValue
            label={t('apiKey.spot')}
            value={
              <Badge tone={current.permissions.spot ? 'positive' : 'negative'}>
                {current.permissions.spot ? t('apiKey.allowed') : t('apiKey.disabled')}
              </Badge>
            }
          />
          <KeyValue
            label={t('apiKey.withdrawals')}
            value={
              <Badge tone={current.permissions.withdraw ? 'negative' : 'positive'}>
                {current.permissions.withdraw ? t('apiKey.allowed') : t('apiKey.disabled')}
              </Badge>
            }
          />
          <KeyValue
            label={t('apiKey.ipRestriction')}
            value={
              current.ipRestricted === null ? (
                '—'
              ) : (
                <Badge tone={current.ipRestricted ? 'positive' : 'negative'}>
                  {current.ipRestricted ? t('apiKey.restricted') : t('apiKey.unrestricted')}
                </Badge>
              )
            }
          />
          {current.tradingExpiresAt ? (
            <KeyValue label={t('apiKey.tradingUntil')} value={format.dateTime(current.tradingExpiresAt)} />
          ) : null}
          <KeyValue label={t('apiKey.savedAt')} value={format.dateTime(current.savedAt)} />
          <KeyValue
            label={t('apiKey.checkedAt')}
            value={current.lastCheckedAt ? format.dateTime(current.lastCheckedAt) : '—'}
          />
        </Card>
      ) : null}
      {egress ? (
        <Card title={t('apiKey.egressTitle')}>
          {egress.ips.map((ip) => (
            <div key={ip} className="egress-ip" data-testid="egress-ip">
              <span className="mono">{ip}</span>
              <CopyButton text={ip} label={`${t('common.copy')} ${ip}`} />
            </div>
          ))}
          <Notice tone={current?.ipRestricted === false ? 'warning' : 'info'}>
            {egress.ips.length > 0 ? t(EGRESS_HINTS[exchange]) : t('apiKey.egressUnknown')}
          </Notice>
        </Card>
      ) : null}
      {current ? <Notice>{t('apiKey.replaceHint')}</Notice> : null}
      <Card
        title={
          current ? t('apiKey.replaceTitle') : t('apiKey.newTitle', { exchange: EXCHANGE_NAMES[exchange] })
        }
      >
        <p className="muted" style={{ margin: '0 0 10px', fontSize: 13.5 }} data-testid="api-key-venue-hint">
          {t(`apiKey.venueHint.${exchange}`)}
        </p>
        <Field
          label={t('apiKey.apiKey')}
          value={apiKey}
          onChange={edit(setApiKey)}
          autoComplete="off"
          spellCheck={false}
          error={touched ? problemText(apiKeyProblem) : null}
        />
        <Field
          label={t('apiKey.secretKey')}
          type="password"
          value={secretKey}
          onChange={edit(setSecretKey)}
          autoComplete="off"
          spellCheck={false}
          error={touched ? problemText(secretProblem) : null}
        />
        {needsPassphrase ? (
          <Field
            label={t('apiKey.passphrase')}
            type="password"
            value={passphrase}
            onChange={edit(setPassphrase)}
            autoComplete="off"
            spellCheck={false}
            error={touched ? problemText(passphraseProblem) : null}
          />
        ) : null}
        {refusal ? (
          <div data-testid="api-key-refusal" data-problem={refusal.code}>
            <Notice tone="warning">{errorText(refusal, 'saveApiKeys')}</Notice>
          </div>
        ) : null}
        {otherAccount ? (
          <Notice tone="warning">
            <strong>{t('apiKey.otherAccountTitle', { exchange: EXCHANGE_NAMES[exchange] })}</strong>{' '}
            {catalogueText('API_KEY_OTHER_ACCOUNT')}
          </Notice>
        ) : null}
        <MainAction
          text={otherAccount ? t('apiKey.otherAccountConfirm') : t('apiKey.save')}
          busy={save.isPending}
          onClick={() => {
            setTouched(true);
            if (apiKeyProblem || secretProblem || passphraseProblem) return;
            save.mutate({
              body: {
                exchange,
                apiKey: apiKey.trim(),
                secretKey: secretKey.trim(),
                ...(needsPassphrase ? { passphrase } : {}),
                confirmAccountSwitch: otherAccount,
              },
            });
          }}
        />
      </Card>
    </Screen>
  );
};
