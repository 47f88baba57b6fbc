import {
  activateCoins,
  getPanel,
  pauseTrading,
  type ResponseOf,
  setDryAll,
  startTrading,
  type TradingState,
} from '@gridbot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeyOf } from '../../api/query-keys';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';
import { Switch } from '../../ui/switch';

type Panel = ResponseOf<typeof getPanel>;

/**
 * Every trading call answers the switches after the change: they go into the panel's cache at
 * once, so the screen does not wait for the panel's next call (it is limited to 1 per 2 s and the
 * refresh right after a change may be refused); the next refresh brings the rest.
 */
const useApplyTradingState = () => {
  const client = useQueryClient();
  return (state: TradingState) =>
    client.setQueryData<Panel>(queryKeyOf(getPanel, INITIAL_INPUTS.panel), (old) =>
      old
        ? {
            ...old,
            running: state.running,
            allRunning: state.allRunning,
            dryAll: state.dryAll,
            coins: old.coins.map((coin) => {
              const now = state.coins.find((c) => c.coinUserId === coin.coinUserId);
              return now
                ? { ...coin, running: now.running, dry: now.dry, state: now.state, dryReason: now.dryReason }
                : coin;
            }),
          }
        : old,
    );
};

/** Start or pause every coin; the result shows as a toast, errors with the spec's texts. */
export const TradingControls = ({ panel }: { panel: Panel }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const applyState = useApplyTradingState();
  const start = useApiMutation(startTrading, {
    onSuccess: (state) => {
      applyState(state);
      showToast(t('toast.tradingStarted'), 'success');
    },
    onError: (error) => showToast(errorText(error, 'startTrading'), 'error'),
  });
  const pause = useApiMutation(pauseTrading, {
    onSuccess: (state) => {
      applyState(state);
      showToast(t('toast.tradingStopped'), 'info');
    },
    onError: (error) => showToast(errorText(error, 'stopTrading'), 'error'),
  });
  const dryAll = useApiMutation(setDryAll, {
    onSuccess: (state) => {
      applyState(state);
      showToast(t(state.dryAll ? 'toast.dryAllOn' : 'toast.dryAllOff'), 'info');
    },
    onError: (error) => showToast(errorText(error, 'dryAll'), 'error'),
  });
  const activate = useApiMutation(activateCoins, {
    onSuccess: (state) => {
      applyState(state);
      showToast(t('toast.coinsActivated'), 'success');
    },
    onError: (error) => showToast(errorText(error, 'activateCoins'), 'error'),
  });
  const ownDry = panel.coins.filter((coin) => coin.dry).length;
  const dryAllShown =
    dryAll.isPending && dryAll.variables ? dryAll.variables.query.status === 'on' : panel.dryAll;
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
      {panel.coins.length > 0 ? (
        <div className="switch-row trading-dry">
          <div>
            <div style={{ fontWeight: 600 }}>{t('panel.dryAll')}</div>
            <div className="muted" style={{ fontSize: 13 }}>
              {t('panel.dryAllHint')}
            </div>
          </div>
          <Switch
            label={t('panel.dryAll')}
            checked={dryAllShown}
            disabled={dryAll.isPending}
            onChange={(on) => dryAll.mutate({ query: { status: on ? 'on' : 'off' } })}
          />
        </div>
      ) : null}
      {ownDry > 0 ? (
        <div className="trading-dry">
          <p className="muted" style={{ margin: '0 0 8px' }}>
            {t('panel.ownDry', { count: ownDry })}
          </p>
          <Button
            variant="secondary"
            small
            busy={activate.isPending}
            onClick={() => activate.mutate({ query: { status: 'on' } })}
          >
            {t('panel.activateAll')}
          </Button>
        </div>
      ) : null}
    </Card>
  );
};
