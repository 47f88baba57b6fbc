import { getProfitChart, type ResponseOf } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { maxAbsOf, ratioOf, signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { useSessionUser } from '../../session/use-session-user';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card } from '../../ui/screen';
import { Skeleton } from '../../ui/states';

type Point = ResponseOf<typeof getProfitChart>['data'][number];

const WIDTH = 320;
const HEIGHT = 110;

const Bars = ({ points, label }: { points: readonly Point[]; label: string }) => {
  const values = points.map((point) => point.realizedPnl);
  const max = maxAbsOf(values);
  // The zero line sits where the largest gain and the largest loss leave room for each other.
  const up = ratioOf(maxAbsOf(values.filter((value) => signOf(value) === 'positive')), max);
  const down = ratioOf(maxAbsOf(values.filter((value) => signOf(value) === 'negative')), max);
  const scale = (HEIGHT - 4) / Math.max(up + down, 0.001);
  const slot = WIDTH / Math.max(points.length, 1);
  const middle = 2 + up * scale;
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img">
      <title>{label}</title>
      <line x1="0" x2={WIDTH} y1={middle} y2={middle} stroke="currentColor" strokeOpacity="0.15" />
      {points.map((point, index) => {
        const sign = signOf(point.realizedPnl);
        const height = Math.max(sign === 'zero' ? 0 : 2, ratioOf(point.realizedPnl, max) * scale);
        return (
          <rect
            key={point.date}
            x={index * slot + slot * 0.18}
            width={slot * 0.64}
            y={sign === 'negative' ? middle : middle - height}
            height={height}
            rx={Math.min(2, slot * 0.3)}
            fill={sign === 'negative' ? 'var(--negative)' : 'var(--accent)'}
          />
        );
      })}
    </svg>
  );
};

/** Panel chart: daily realized profit of the last 30 UTC days (graph profit for the user id), days labelled in UTC. */
export const ProfitChart = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useSessionUser();
  const query = useApiQuery(getProfitChart, INITIAL_INPUTS.graphProfit(user.uid));
  return (
    <QueryView
      query={query}
      title={t('panel.chart')}
      loading={
        <Card title={t('panel.chart')}>
          <Skeleton height={110} />
        </Card>
      }
    >
      {({ data }) => {
        const first = data[0];
        const last = data.at(-1);
        const hasTrades = data.some((point) => point.closedTrades > 0);
        return (
          <Card title={t('panel.chart')}>
            {hasTrades && last ? (
              <>
                <div className="mini-card__value">
                  <Usdt value={last.cumulativePnl} signed />
                </div>
                <Bars points={data} label={t('panel.chart')} />
                {first ? (
                  <p className="chart-note">
                    {t('panel.chartRange', {
                      from: format.shortDate(first.date),
                      to: format.shortDate(last.date),
                    })}
                  </p>
                ) : null}
              </>
            ) : (
              <p className="muted">{t('panel.chartEmpty')}</p>
            )}
          </Card>
        );
      }}
    </QueryView>
  );
};
