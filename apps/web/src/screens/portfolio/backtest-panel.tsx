import { BACKTEST_WINDOWS, type BacktestWindow, backtestCoin } from '@gridbot/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallInput } from '../../api/call-api';
import { useApiMutation } from '../../api/use-api';
import { Button } from '../../ui/button';
import { Card, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { ActionProblem } from './action-problem';
import { BacktestResultCard } from './backtest-result';

/** The settings a backtest replays: the form's values as the API takes them, without the window. */
export type BacktestSettings = Omit<CallInput<typeof backtestCoin>['body'], 'window'>;

const DEFAULT_WINDOW: BacktestWindow = '30d_5m';

const keyOf = (settings: BacktestSettings, window: BacktestWindow) => JSON.stringify({ ...settings, window });

/**
 * "Backtest these settings" (docs/grid.md#what-if-backtest): a window choice, the run with a busy
 * state (a long window takes a second), the refusal in place (429, no API keys, an unlisted coin),
 * and the result card. `settings` is null while the form is invalid: `onInvalid` then shows why.
 */
export const BacktestPanel = ({
  coin,
  settings,
  onInvalid,
  title,
  framed = true,
}: {
  coin: string;
  settings: BacktestSettings | null;
  onInvalid?: () => void;
  title?: string;
  /** false inside another card: a small heading instead of a section and a card of its own. */
  framed?: boolean;
}) => {
  const { t } = useTranslation();
  const resultId = useId();
  const [span, setSpan] = useState<BacktestWindow>(DEFAULT_WINDOW);
  const [ranWith, setRanWith] = useState<string | null>(null);
  // A backtest changes nothing: no cached read goes stale.
  const run = useApiMutation(backtestCoin, { invalidate: false });
  const start = () => {
    if (!settings) {
      onInvalid?.();
      return;
    }
    setRanWith(keyOf(settings, span));
    run.mutate({ body: { ...settings, window: span } });
  };
  const current = settings ? keyOf(settings, span) : null;
  const heading = title ?? t('backtest.title');
  const body = (
    <>
      <p className="muted" style={{ margin: '0 0 10px' }}>
        {t('backtest.hint', { coin })}
      </p>
      <Segmented
        label={t('backtest.window')}
        grid
        value={span}
        onChange={setSpan}
        options={BACKTEST_WINDOWS.map((value) => ({ value, label: t(`backtest.windows.${value}`) }))}
      />
      <Button variant="secondary" block busy={run.isPending} onClick={start} aria-controls={resultId}>
        {run.isPending ? t('backtest.running') : t('backtest.run')}
      </Button>
      <div id={resultId} aria-live="polite" className="backtest-panel__out">
        {run.isError && !run.isPending ? (
          <ActionProblem error={run.error} coin={coin} exchange={settings?.exchange} />
        ) : null}
        {run.data && !run.isPending ? (
          <BacktestResultCard result={run.data} stale={current !== ranWith} />
        ) : null}
      </div>
    </>
  );
  if (!framed) {
    return (
      <section className="backtest-panel">
        <h2 className="card__title">{heading}</h2>
        {body}
      </section>
    );
  }
  return (
    <>
      <SectionTitle>{heading}</SectionTitle>
      <Card>{body}</Card>
    </>
  );
};
