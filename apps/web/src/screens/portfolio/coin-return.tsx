import type { PortfolioCoin } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { Usdt } from '../../ui/money';
import { Card } from '../../ui/screen';
import { Stat, Stats } from '../../ui/stat';
import { AnnualizedPct, ReturnPct, RunningSince, Runtime } from '../shared/run-return';

/**
 * The coin's runtime and return beside its PnL (docs/pnl.md#runtime-and-return): how long it has
 * run since its first start, the capital set aside for it, realized profit over that capital and
 * the same annualized.
 */
export const CoinReturn = ({ coin }: { coin: PortfolioCoin }) => {
  const { t } = useTranslation();
  const { run } = coin.stats;
  return (
    <Card title={t('run.title')}>
      <Stats>
        <Stat
          label={t('run.runtime')}
          value={
            <>
              <Runtime run={run} />
              <RunningSince run={run} />
            </>
          }
        />
        <Stat
          label={t('run.capital')}
          value={
            <>
              <Usdt value={coin.committedCapital} />
              <span className="stat__note">{t('run.capitalNote')}</span>
            </>
          }
        />
        <Stat
          label={t('run.returnPct')}
          value={
            <>
              <ReturnPct run={run} />
              <span className="stat__note">{t('run.returnNote')}</span>
            </>
          }
        />
        <Stat
          label={t('run.annualized')}
          value={
            <>
              <AnnualizedPct run={run} />
              <span className="stat__note">{t('run.annualizedNote')}</span>
            </>
          }
        />
      </Stats>
    </Card>
  );
};
