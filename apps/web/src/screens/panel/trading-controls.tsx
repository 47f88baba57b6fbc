import { type getPanel, pauseTrading, type ResponseOf, startTrading } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';

type Panel = ResponseOf<typeof getPanel>;

/** Start or pause every coin; the result shows as a toast, errors with the spec's texts. */
export const TradingControls = ({ panel }: { panel: Panel }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const start = useApiMutation(startTrading, {
    onSuccess: () => {
      showToast(t('toast.tradingStarted'), 'success');
    },
    onError: (error) => showToast(errorText(error, 'startTrading'), 'error'),
  });
  const pause = useApiMutation(pauseTrading, {
    onSuccess: () => {
      showToast(t('toast.tradingStopped'), 'info');
    },
    onError: (error) => showToast(errorText(error, 'stopTrading'), 'error'),
  });
  const askPause = async () => {
    const ok = await confirmAction({
      title: t('panel.confirmPauseTitle'),
      message: t('panel.confirmPause'),
      confirmText: t('panel.pauseAll'),
      destructive: true,
    });
    if (ok) pause.mutate({ query: {} });
  };
  return (
    <Card>
      <div className="trading-status">
        <div className="trading-status__state">
          <span className={`status-dot${panel.running ? ' status-dot--on' : ''}`} />
          {panel.running ? t('panel.tradingOn') : t('panel.tradingOff')}
        </div>
        <div className="muted">
          {t('panel.committed')}: <Usdt value={panel.committedCapital} />
        </div>
      </div>
      {panel.dryAll ? <Notice>{t('panel.dryAllOn')}</Notice> : null}
      {panel.blockers.length > 0 ? (
        <Notice tone="warning">
          <b>{t('panel.blockersTitle')}</b>
          <ul className="blockers">
            {panel.blockers.map((blocker) => (
              <li key={blocker}>{t(`blockers.${blocker}`)}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <div className="actions">
        <Button
          busy={start.isPending}
          disabled={panel.allRunning}
          onClick={() => start.mutate({ query: {} })}
        >
          {t('panel.startAll')}
        </Button>
        <Button
          variant="danger"
          busy={pause.isPending}
          disabled={!panel.running}
          onClick={() => void askPause()}
        >
          {t('panel.pauseAll')}
        </Button>
      </div>
    </Card>
  );
};
