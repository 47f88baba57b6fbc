import {
  type CoinSettings,
  deepestStepPct,
  editCoinSettings,
  getCoin,
  type Ladder,
  resetCoinSettings,
} from '@gridbot/contracts';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { type SettingsDraft, settingsBody, settingsProblems } from '../../forms/coin-settings-form';
import { useProblemText } from '../../forms/use-problem-text';
import { showToast } from '../../shell/toast-store';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { MainAction, SecondaryAction } from '../../ui/main-action';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';
import { Switch } from '../../ui/switch';
import { LadderView } from './ladder-view';

const route = getRouteApi('/user/portfolio/edit');

const draftOf = (settings: CoinSettings): SettingsDraft => ({
  orderSize: settings.orderSize,
  stepPct: settings.stepPct,
  stepIncreasePct: settings.stepIncreasePct,
  maxTrades: String(settings.maxTrades),
  dry: settings.dry,
});

const SettingsForm = ({ coin, initial }: { coin: string; initial: CoinSettings }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const errorText = useActionError();
  const problemText = useProblemText();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(initial));
  const [touched, setTouched] = useState(false);
  const [preview, setPreview] = useState<Ladder | null>(null);
  const problems = settingsProblems(coin, draft);
  const valid = Object.values(problems).every((problem) => problem === null);
  const saved = draftOf(initial);
  useClosingConfirmation(
    (Object.keys(saved) as (keyof SettingsDraft)[]).some((key) => draft[key] !== saved[key]),
  );
  const set = (patch: Partial<SettingsDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setPreview(null);
  };
  const onError = (error: unknown) => showToast(errorText(error, 'tryLater'), 'error');
  // A preview saves nothing, so it leaves the cached coin, portfolio and panel alone.
  const previewCall = useApiMutation(editCoinSettings, {
    invalidate: false,
    onSuccess: (result) => setPreview(result.ladder),
    onError,
  });
  const save = useApiMutation(editCoinSettings, {
    onSuccess: () => {
      showToast(t('editToken.saved'), 'success');
      void navigate({ to: '/portfolio/show', search: { coin } });
    },
    onError,
  });
  const reset = useApiMutation(resetCoinSettings, {
    onSuccess: (result) => {
      setDraft(draftOf(result.coin.settings));
      setPreview(result.ladder);
    },
    onError,
  });
  const submit = (previewOnly: boolean) => {
    setTouched(true);
    if (!valid) return;
    (previewOnly ? previewCall : save).mutate({ body: settingsBody(coin, draft, previewOnly) });
  };
  const shown = (key: keyof typeof problems) =>
    touched || draft[key] !== saved[key] ? problemText(problems[key]) : null;
  const sent = settingsBody(coin, draft, true);
  const deepest =
    !problems.stepPct && !problems.stepIncreasePct && !problems.maxTrades
      ? deepestStepPct(sent.stepPct, sent.stepIncreasePct, sent.maxTrades)
      : null;
  return (
    <>
      <Card>
        <Field
          label={t('editToken.orderSize')}
          inputMode="decimal"
          value={draft.orderSize}
          onChange={(orderSize) => set({ orderSize })}
          error={shown('orderSize')}
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
      <div className="actions" style={{ marginBottom: 12 }}>
        <SecondaryAction
          text={t('editToken.preview')}
          busy={previewCall.isPending}
          onClick={() => submit(true)}
        />
        <MainAction text={t('editToken.save')} busy={save.isPending} onClick={() => submit(false)} />
      </div>
      <Button variant="ghost" block busy={reset.isPending} onClick={() => reset.mutate({ body: { coin } })}>
        {t('editToken.reset')}
      </Button>
      {preview ? <LadderView ladder={preview} /> : null}
    </>
  );
};

/** Edit-token (`?coin=BTC`): the grid settings; the new ladder can be previewed before saving. */
export const EditTokenScreen = () => {
  const { t } = useTranslation();
  const { coin } = route.useSearch();
  const query = useApiQuery(
    getCoin,
    { params: { coin: coin ?? '' }, query: { period: 'day' } },
    { enabled: Boolean(coin) },
  );
  return (
    <Screen back title={coin ? t('editToken.title', { coin }) : t('editToken.title', { coin: '' })}>
      {coin ? (
        <QueryView query={query} loading={<Skeleton height={320} />} title={t('token.settings')}>
          {(card) => (
            <SettingsForm key={card.coin.coinUserId} coin={card.coin.coin} initial={card.coin.settings} />
          )}
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
