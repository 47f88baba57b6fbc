import type { RunReturn } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import { Pct } from '../../ui/money';

/** How long a bot has run, to the minute: `21 d 4 h`, `5 h 12 min`, `40 min`. */
export const useRuntimeText = () => {
  const { t } = useTranslation();
  return (seconds: number) => {
    const minutes = Math.floor(seconds / 60);
    const hours = Math.floor(minutes / 60);
    const days = Math.floor(hours / 24);
    if (days > 0) return t('run.days', { days, hours: hours % 24 });
    if (hours > 0) return t('run.hours', { hours, minutes: minutes % 60 });
    return t('run.minutes', { minutes });
  };
};

/** Runtime since the first start; a dash before it. */
export const Runtime = ({ run }: { run: RunReturn }) => {
  const runtime = useRuntimeText();
  return <>{run.runtimeSeconds === null ? '—' : runtime(run.runtimeSeconds)}</>;
};

/** Return on the capital set aside, signed; a dash without capital. */
export const ReturnPct = ({ run }: { run: RunReturn }) =>
  run.returnPct === null ? <>—</> : <Pct value={run.returnPct} signed />;

/**
 * The simple annualized return; before a day of runtime (docs/pnl.md#runtime-and-return) it says
 * when it will be shown instead of a figure that would multiply hours of luck by hundreds.
 */
export const AnnualizedPct = ({ run }: { run: RunReturn }) => {
  const { t } = useTranslation();
  if (run.annualizedPct !== null) return <Pct value={run.annualizedPct} signed />;
  if (run.returnPct === null || run.runtimeSeconds === null) return <>—</>;
  return <span className="run-too-early">{t('run.tooEarly')}</span>;
};

/** `since 14 Mar, 09:30` (the reader's time) under a runtime, or that the bot never started. */
export const RunningSince = ({ run }: { run: RunReturn }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <span className="stat__note">
      {run.runningSince ? t('run.since', { date: format.dateTime(run.runningSince) }) : t('run.notStarted')}
    </span>
  );
};
