import type { BacktestResult } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';

const WIDTH = 320;
const HEIGHT = 120;
const PAD = 6;

type Point = { x: number; y: number };

/**
 * The replayed closes as a line with the fills as dots: buys filled, sells as rings (told apart
 * without colour too). Prices and times become JS numbers here for drawing only — no figure shown
 * is computed from them. Dependency-free on purpose: the app's chart component is lazy and heavier.
 */
export const BacktestSparkline = ({ result }: { result: BacktestResult }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { prices, fills } = result;
  const first = prices[0];
  const last = prices.at(-1);
  if (!first || !last || prices.length < 2) return null;
  const times = prices.map((point) => Date.parse(point.time));
  const start = times[0] ?? 0;
  const span = Math.max((times.at(-1) ?? start) - start, 1);
  const values = [...prices.map((point) => Number(point.close)), ...fills.map((fill) => Number(fill.price))];
  const low = Math.min(...values);
  const range = Math.max(Math.max(...values) - low, Number.EPSILON);
  const at = (time: number, price: number): Point => ({
    x: PAD + ((time - start) / span) * (WIDTH - 2 * PAD),
    y: PAD + (1 - (price - low) / range) * (HEIGHT - 2 * PAD),
  });
  const line = prices.map((point, index) => at(times[index] ?? start, Number(point.close)));
  const path = line.map(({ x, y }, index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`);
  const area = `${path.join('')}L${(WIDTH - PAD).toFixed(1)},${HEIGHT}L${PAD},${HEIGHT}Z`;
  const buys = fills.filter((fill) => fill.side === 'buy').length;
  const label = t('backtest.chart', {
    coin: result.coin,
    first: format.price(first.close, result.priceTick),
    last: format.price(last.close, result.priceTick),
    buys,
    sells: fills.length - buys,
  });
  return (
    <figure className="sparkline">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" className="sparkline__svg">
        <title>{label}</title>
        <path d={area} className="sparkline__area" />
        <path d={path.join('')} className="sparkline__line" />
        {fills.map((fill, index) => {
          const { x, y } = at(Date.parse(fill.time), Number(fill.price));
          return (
            <circle
              // Fills have no id; their order in the answer is stable.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              cx={x}
              cy={y}
              r={fill.side === 'buy' ? 2.6 : 2.4}
              className={fill.side === 'buy' ? 'sparkline__buy' : 'sparkline__sell'}
            />
          );
        })}
      </svg>
      <figcaption className="sparkline__legend" aria-hidden="true">
        <span>
          <span className="sparkline__key sparkline__key--buy" />
          {t('backtest.buy')}
        </span>
        <span>
          <span className="sparkline__key sparkline__key--sell" />
          {t('backtest.sell')}
        </span>
      </figcaption>
    </figure>
  );
};
