import {
  type CoinSettings,
  DEFAULT_COIN_SETTINGS,
  deepestStepPct,
  type Exchange,
  editCoinSettings,
  getCoin,
  listAddableCoins,
  type PortfolioCoin,
  resetCoinSettings,
} from '@gridbot/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import {
  fieldsOfRefusal,
  isAboveExchangeOrderLimit,
  isBelowExchangeMin,
  type SettingsDraft,
  type SettingsField,
  settingsBody,
  settingsProblems,
} from '../../forms/coin-settings-form';
import { useProblemText } from '../../forms/use-problem-text';
import { showToast } from '../../shell/toast-store';
import { useDebouncedValue } from '../../state/use-debounced-value';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { MainAction, SecondaryAction } from '../../ui/main-action';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';
import { Switch } from '../../ui/switch';
import { ActionProblem } from './action-problem';
import { BacktestPanel } from './backtest-panel';
import { CoinExchangeChoice } from './coin-exchange-choice';
import { LadderView } from './ladder-view';
import { RemoveCoin } from './remove-coin';
import { SettingsPreview } from './settings-preview';

const route = getRouteApi('/user/portfolio/edit');

/** docs/grid.md#editing-settings: the preview is asked for once typing has stopped this long. */
const PREVIEW_DELAY_MS = 400;

const draftOf = (settings: CoinSettings): SettingsDraft => ({
  orderSize: settings.orderSize,
  stepPct: settings.stepPct,
  stepIncreasePct: settings.stepIncreasePct,
  maxTrades: String(settings.maxTrades),
  dry: settings.dry,
});

/**
 * The market's minimum order and open-order limit, from the add-coin list of the user's exchange
 * (null while unknown).
 */
const useMarketLimits = (coin: string, exchange: Exchange) => {
  const markets = useApiQuery(
    listAddableCoins,
    { query: { search: coin, exchange } },
    { staleTime: 30_000, retry: false },
  );
  const market = markets.data?.coins.find((m) => m.coin === coin);
  return { minOrder: market?.minOrderUsdt ?? null, maxOpenOrders: market?.maxOpenOrders ?? null };
};

const SettingsForm = ({ coin }: { coin: PortfolioCoin }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const errorText = useActionError();
  const problemText = useProblemText();
  const { minOrder, maxOpenOrders } = useMarketLimits(coin.coin, coin.exchange);
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(coin.settings));
  const [touched, setTouched] = useState(false);
  const problems = settingsProblems(coin.coin, draft);
  const belowMin = !problems.orderSize && isBelowExchangeMin(draft, minOrder);
  const aboveOrders = !problems.maxTrades && isAboveExchangeOrderLimit(draft, maxOpenOrders);
  const valid = !belowMin && !aboveOrders && Object.values(problems).every((problem) => problem === null);
  const saved = draftOf(coin.settings);
  const changed = (Object.keys(saved) as (keyof SettingsDraft)[]).some((key) => draft[key] !== saved[key]);
  useClosingConfirmation(changed);
  const body = valid ? JSON.stringify(settingsBody(coin.coin, draft, true, coin.exchange)) : null;
  const [settledBody, previewNow] = useDebouncedValue(body, PREVIEW_DELAY_MS);
  // A preview saves nothing: a read keyed by the settings, so the answer for older input is dropped.
  const preview = useApiQuery(
    editCoinSettings,
    { body: settledBody ? JSON.parse(settledBody) : undefined },
    {
      enabled: settledBody !== null && settledBody === body,
      retry: false,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      placeholderData: keepPreviousData,
    },
  );
  const save = useApiMutation(editCoinSettings, {
    onSuccess: () => {
      showToast(t('editToken.saved'), 'success');
      void navigate({ to: '/portfolio/show', search: { coin: coin.coin, exchange: coin.exchange } });
    },
  });
  const reset = useApiMutation(resetCoinSettings, {
    onSuccess: (result) => {
      setDraft(draftOf(result.coin.settings));
      showToast(t('editToken.resetDone'), 'success');
    },
  });
  const set = (patch: Partial<SettingsDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    save.reset();
  };
  // The newest refusal for the settings on screen: the save's, else the preview's of this input.
  const previewError = preview.isError && settledBody === body ? preview.error : null;
  const refusal = save.error ?? previewError;
  const refusedFields = isApiError(refusal) ? fieldsOfRefusal(refusal.code, draft, saved) : [];
  const shown = (key: SettingsField): string | null => {
    const own = touched || draft[key] !== saved[key] ? problemText(problems[key]) : null;
    if (own) return own;
    if (key === 'orderSize' && belowMin && minOrder)
      return t('editToken.belowExchangeMin', { min: format.usdtExact(minOrder) });
    if (key === 'maxTrades' && aboveOrders && maxOpenOrders !== null)
      return t('editToken.aboveExchangeOrders', { count: maxOpenOrders });
    return refusal && refusedFields.includes(key) ? errorText(refusal) : null;
  };
  const submit = (previewOnly: boolean) => {
    setTouched(true);
    if (!valid) return;
    if (previewOnly) {
      previewNow();
      if (settledBody === body) void preview.refetch();
      return;
    }
    save.mutate({ body: settingsBody(coin.coin, draft, false, coin.exchange) });
  };
  const askReset = async () => {
    const ok = await confirmAction({
      message: t('editToken.confirmReset', {
        coin: coin.coin,
        orderSize: format.usdtExact(DEFAULT_COIN_SETTINGS.orderSize),
        stepPct: format.amount(DEFAULT_COIN_SETTINGS.stepPct),
        stepIncreasePct: format.amount(DEFAULT_COIN_SETTINGS.stepIncreasePct),
        count: DEFAULT_COIN_SETTINGS.maxTrades,
      }),
      confirmText: t('editToken.reset'),
    });
    if (ok) reset.mutate({ body: { coin: coin.coin, exchange: coin.exchange } });
  };
  const sent = settingsBody(coin.coin, draft, true, coin.exchange);
  const deepest =
    !problems.stepPct && !problems.stepIncreasePct && !problems.maxTrades
      ? deepestStepPct(sent.stepPct, sent.stepIncreasePct, sent.maxTrades)
      : null;
  const { dry: _dry, preview: _preview, ...replayed } = sent;
  const ladder = preview.data?.ladder;
  const formProblem = refusal && refusedFields.length === 0 ? refusal : (reset.error ?? null);
  return (
    <>
      <Card>
        <Field
          label={t('editToken.orderSize')}
          inputMode="decimal"
          value={draft.orderSize}
          onChange={(orderSize) => set({ orderSize })}
          error={shown('orderSize')}
          hint={minOrder ? t('editToken.exchangeMin', { min: format.usdtExact(minOrder) }) : undefined}
        />
        <Field
          label={t('editToken.step')}
          inputMode="decimal"
          value={draft.stepPct}
          onChange={(stepPct) => set({ stepPct })}
          error={shown('stepPct')}
        />
        <Field
          label={t('editToken.stepIncrease')}
          inputMode="decimal"
          value={draft.stepIncreasePct}
          onChange={(stepIncreasePct) => set({ stepIncreasePct })}
          error={shown('stepIncreasePct')}
          hint={t('editToken.example')}
        />
        <Field
          label={t('editToken.maxTrades')}
          inputMode="numeric"
          value={draft.maxTrades}
          onChange={(maxTrades) => set({ maxTrades })}
          error={shown('maxTrades')}
          hint={deepest ? t('editToken.deepest', { pct: format.pct(deepest).replace('%', '') }) : undefined}
        />
        <div className="switch-row">
          <div>
            <div style={{ fontWeight: 600 }}>{t('editToken.dry')}</div>
            <div className="muted" style={{ fontSize: 13 }}>
              {t('editToken.dryHint')}
            </div>
          </div>
          <Switch label={t('editToken.dry')} checked={draft.dry} onChange={(dry) => set({ dry })} />
        </div>
      </Card>
      <SettingsPreview
        ladder={ladder}
        warnings={preview.data?.warnings ?? []}
        updating={preview.isFetching || body !== settledBody}
        waiting={!valid}
      />
      {formProblem ? (
        <ActionProblem error={formProblem} coin={coin.coin} exchange={coin.exchange} fallback="tryLater" />
      ) : null}
      <p className="muted form-note">{t('editToken.appliesToOpen')}</p>
      <div className="actions" style={{ marginBottom: 12 }}>
        <SecondaryAction
          text={t('editToken.preview')}
          busy={preview.isFetching}
          onClick={() => submit(true)}
        />
        <MainAction text={t('editToken.save')} busy={save.isPending} onClick={() => submit(false)} />
      </div>
      {ladder ? <LadderView ladder={ladder} /> : null}
      <BacktestPanel coin={coin.coin} settings={valid ? replayed : null} onInvalid={() => setTouched(true)} />
      <Button variant="ghost" block busy={reset.isPending} onClick={() => void askReset()}>
        {t('editToken.reset')}
      </Button>
      <RemoveCoin coin={coin} />
    </>
  );
};

/** Edit-token (`?coin=BTC`): the grid settings with a live preview, a backtest, reset and removal. */
export const EditTokenScreen = () => {
  const { t } = useTranslation();
  const { coin, exchange } = route.useSearch();
  const query = useApiQuery(
    getCoin,
    { params: { coin: coin ?? '' }, query: { period: 'day', ...(exchange ? { exchange } : {}) } },
    { enabled: Boolean(coin) },
  );
  return (
    <Screen back title={t('editToken.title', { coin: coin ?? '' })}>
      {coin && isApiError(query.error) && query.error.code === 'EXCHANGE_REQUIRED' ? (
        <CoinExchangeChoice coin={coin} to="/portfolio/edit" />
      ) : coin ? (
        <QueryView query={query} loading={<Skeleton height={320} />} title={t('token.settings')}>
          {(card) => <SettingsForm key={card.coin.coinUserId} coin={card.coin} />}
        </QueryView>
      ) : (
        <Card>
          <EmptyState
            title={t('token.chooseCoin')}
            action={
              <Link to="/portfolio" className="button button--secondary button--small">
                {t('nav.portfolio')}
              </Link>
            }
          />
        </Card>
      )}
    </Screen>
  );
};
