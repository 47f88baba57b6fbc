import type { BacktestResult } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { Pct, Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Stat, Stats } from '../../ui/stat';
import { BacktestSparkline } from './backtest-sparkline';

/** One what-if backtest answer (docs/grid.md#what-if-backtest): every figure as the API sent it. */
export const BacktestResultCard = ({ result, stale }: { result: BacktestResult; stale: boolean }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const drawdown = result.worstDrawdown;
  return (
    <div className="backtest-result" data-testid="backtest-result">
      {stale ? <Notice>{t('backtest.stale')}</Notice> : null}
      <div className="backtest-result__head">
        <div className="stat__label">{t('backtest.realized')}</div>
        <div className={`backtest-result__profit ${signOf(result.realizedPnl)}`}>
          <Usdt value={result.realizedPnl} signed />
        </div>
        <div className="muted">
          {t('backtest.ofCapital', { pct: format.pct(result.realizedPnlPct, { plus: true }) })}
        </div>
        <div className="muted backtest-result__period">
          {t(`backtest.windows.${result.window}`)} ·{' '}
          {t('backtest.period', {
            from: format.date(result.from),
            to: format.date(result.to),
            candles: format.integer(result.candles),
          })}
        </div>
      </div>
      <BacktestSparkline result={result} />
      <Stats>
        <Stat
          label={t('backtest.deals')}
          value={t('backtest.dealsValue', {
            closed: format.integer(result.closedDeals),
            profitable: format.integer(result.profitableDeals),
          })}
        />
        <Stat
          label={t('backtest.buysSells')}
          value={`${format.integer(result.buys)} / ${format.integer(result.sells)}`}
        />
        <Stat
          label={t('backtest.openLots')}
          value={
            result.openLots > 0
              ? `${format.integer(result.openLots)} · ${format.qty(result.openQty, result.qtyStep)} ${result.coin}`
              : '0'
          }
        />
        <Stat
          label={t('backtest.unrealized')}
          value={<Usdt value={result.unrealizedPnl} signed />}
          tone={signOf(result.unrealizedPnl)}
        />
        <Stat label={t('backtest.capitalAtLimit')} value={<Usdt value={result.capitalAtLimit} />} />
        <Stat label={t('backtest.capitalUsed')} value={<Usdt value={result.capitalUsed} />} />
        <Stat
          label={t('backtest.drawdown')}
          value={
            drawdown.at ? (
              <>
                <Usdt value={drawdown.usdt} signed /> (<Pct value={drawdown.pct} signed />)
                <span className="stat__note">{format.dateTime(drawdown.at)}</span>
              </>
            ) : (
              t('backtest.drawdownNone')
            )
          }
        />
        <Stat label={t('backtest.fee')} value={format.pct(result.feePct)} />
      </Stats>
      {result.fillsTruncated ? (
        <p className="muted backtest-result__note">
          {t('backtest.fillsTruncated', { count: result.fills.length })}
        </p>
      ) : null}
      <p className="muted backtest-result__note">{t('backtest.disclaimer')}</p>
    </div>
  );
};
