import {
  CHART_RANGES,
  type ChartRange,
  type Exchange,
  getCoinChart,
  type OrderOnBook,
  type ResponseOf,
} from '@gridbot/contracts';
import {
  Component,
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { EXCHANGE_NAMES } from '../../format/exchange-name';
import { localeOf } from '../../i18n/language';
import { createStore, useStore } from '../../state/create-store';
import { QueryView } from '../../ui/query-view';
import { Segmented } from '../../ui/segmented';
import { EmptyState, ErrorState, Skeleton } from '../../ui/states';
import type { PriceChartLine, PriceChartMarker } from './price-chart-data';

// The chart library is a chunk of its own, loaded when a chart is first shown (never at start).
const PriceChart = lazy(() => import('./price-chart').then((module) => ({ default: module.PriceChart })));

/** How often a chart on screen refreshes itself (not in the background, not scrolled away). */
export const CHART_REFRESH_MS = 15_000;
export const CHART_HEIGHT = 260;

type CoinChart = ResponseOf<typeof getCoinChart>;

/** The range and the panel's coin, kept for the session: both screens open where the user left. */
const chartChoice = createStore<{ range: ChartRange; coin: string | null }>({ range: '1d', coin: null });

/**
 * Whether the element is (about to be) on screen, and whether it ever was: a chart below the fold
 * loads when the user scrolls to it, and refreshes only while it is in view.
 */
const useOnScreen = (element: RefObject<HTMLElement | null>, initially: boolean) => {
  const [state, setState] = useState({ onScreen: initially, seen: initially });
  useEffect(() => {
    const target = element.current;
    if (!target || typeof IntersectionObserver === 'undefined') {
      setState({ onScreen: true, seen: true });
      return;
    }
    const observer = new IntersectionObserver(
      ([entry]) => {
        const onScreen = entry?.isIntersecting ?? true;
        setState((previous) => ({ onScreen, seen: previous.seen || onScreen }));
      },
      { rootMargin: '120px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return state;
};

/**
 * A chart chunk that failed to load is shown in place. The browser keeps a failed module import
 * for the page's life, so "Try again" reloads the page (as the router does for a screen's chunk).
 */
class ChunkBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error)
      return <ErrorState error={this.state.error} onRetry={() => window.location.reload()} />;
    return this.props.children;
  }
}

const ChartSkeleton = () => (
  <div aria-busy="true">
    <Skeleton height={CHART_HEIGHT} />
  </div>
);

const Legend = ({ data }: { data: CoinChart }) => {
  const { t } = useTranslation();
  return (
    <ul className="price-chart__legend">
      <li>
        <span className="price-chart__key price-chart__key--buy" aria-hidden="true" />
        {t('chart.buys')}
      </li>
      <li>
        <span className="price-chart__key price-chart__key--sell" aria-hidden="true" />
        {t('chart.sells')}
      </li>
      {data.ladder.nextBuy ? (
        <li>
          <span className="price-chart__line price-chart__line--buy" aria-hidden="true" />
          {t('chart.nextBuy')}
        </li>
      ) : null}
      {data.ladder.takeProfits.length > 0 ? (
        <li>
          <span className="price-chart__line price-chart__line--sell" aria-hidden="true" />
          {t('chart.takeProfits')}
        </li>
      ) : null}
      {offBookLines(data) > 0 ? (
        <li>
          <span className="price-chart__line price-chart__line--off-book" aria-hidden="true" />
          {t('chart.offBook')}
        </li>
      ) : null}
    </ul>
  );
};

/** A planned order that does not rest on the exchange now (docs/grid.md#on-the-exchange). */
const isOffBook = (order: { onBook: OrderOnBook | null }) =>
  order.onBook !== null && order.onBook.state !== 'resting';

/** How many of the ladder's lines are orders that do not rest on the exchange now. */
const offBookLines = (data: CoinChart) =>
  [...(data.ladder.nextBuy ? [data.ladder.nextBuy] : []), ...data.ladder.takeProfits].filter(isOffBook)
    .length;

const TRADINGVIEW_URL = 'https://www.tradingview.com/';

/** The chart library's licence (Apache 2.0 with TradingView's notice): its name and a link to TradingView. */
const Attribution = () => {
  const { t } = useTranslation();
  return (
    <p className="price-chart__note">
      {t('chart.attribution')}{' '}
      <a
        href={TRADINGVIEW_URL}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(event) => {
          event.preventDefault();
          void import('../../telegram/links').then(({ openExternal }) => openExternal(TRADINGVIEW_URL));
        }}
      >
        TradingView Lightweight Charts™
      </a>
    </p>
  );
};

const ChartBody = ({ data }: { data: CoinChart }) => {
  const { t, i18n } = useTranslation();
  const markers = useMemo<PriceChartMarker[]>(
    () => data.fills.map((fill) => ({ time: fill.time, side: fill.side, price: fill.price })),
    [data.fills],
  );
  const lines = useMemo<PriceChartLine[]>(
    () => [
      ...(data.ladder.nextBuy
        ? [
            {
              price: data.ladder.nextBuy.price,
              side: 'buy' as const,
              title: isOffBook(data.ladder.nextBuy)
                ? t('chart.offBookLine', { order: t('chart.buyLine') })
                : t('chart.buyLine'),
              dashed: true,
              offBook: isOffBook(data.ladder.nextBuy),
            },
          ]
        : []),
      // Ascending: the nearest take profit is labelled and kept in view, the ones above are lines.
      // One that is not on the exchange is labelled too: the user should see it is not there.
      ...data.ladder.takeProfits.map((tp, index) => ({
        price: tp.price,
        side: 'sell' as const,
        title: isOffBook(tp) ? t('chart.offBookLine', { order: t('chart.sellLine') }) : t('chart.sellLine'),
        labelled: index === 0 || isOffBook(tp),
        offBook: isOffBook(tp),
      })),
    ],
    [data.ladder, t],
  );
  if (data.candles.length === 0) return <EmptyState title={t('chart.empty')} />;
  return (
    <>
      <ChunkBoundary>
        <Suspense fallback={<ChartSkeleton />}>
          <PriceChart
            candles={data.candles}
            markers={markers}
            lines={lines}
            label={t('chart.label', { coin: data.coin })}
            locale={localeOf(i18n.language)}
            tick={data.priceTick}
            height={CHART_HEIGHT}
          />
        </Suspense>
      </ChunkBoundary>
      <Legend data={data} />
      {data.fillsTruncated ? <p className="price-chart__note">{t('chart.fillsTruncated')}</p> : null}
      <Attribution />
    </>
  );
};

/**
 * The price chart of one coin of the portfolio: candles of the chosen range with the bot's buys
 * and sells and the resting ladder (next buy, take profits), refreshed while on screen. With
 * `whenSeen` nothing is asked for until the card is scrolled near the screen (the panel: its
 * first screen never waits for the chart, nor fetches it for a user who does not scroll).
 */
export const CoinPriceChart = ({
  coin,
  exchange,
  chooser,
  whenSeen = false,
}: {
  coin: string;
  /** The coin bot's exchange (a coin may run on several). */
  exchange?: Exchange;
  chooser?: ReactNode;
  whenSeen?: boolean;
}) => {
  const { t } = useTranslation();
  const { range } = useStore(chartChoice);
  const card = useRef<HTMLDivElement>(null);
  const { onScreen, seen } = useOnScreen(card, !whenSeen);
  const query = useApiQuery(
    getCoinChart,
    { query: { coin, range, ...(exchange ? { exchange } : {}) } },
    { enabled: seen, refetchInterval: onScreen ? CHART_REFRESH_MS : false },
  );
  // A failed refresh keeps the chart it had; only a chart that never loaded shows the error.
  const body = !seen ? (
    <div style={{ height: CHART_HEIGHT }} />
  ) : query.data ? (
    <ChartBody data={query.data} />
  ) : (
    <QueryView query={query} card={false} loading={<ChartSkeleton />}>
      {(data) => <ChartBody data={data} />}
    </QueryView>
  );
  return (
    <div className="card price-chart" ref={card} data-testid="coin-chart" data-coin={coin} data-range={range}>
      <div className="price-chart__head">
        <h2 className="card__title">{t('chart.title', { coin })}</h2>
        <Segmented
          label={t('chart.range')}
          value={range}
          onChange={(next) => chartChoice.set((state) => ({ ...state, range: next }))}
          options={CHART_RANGES.map((value) => ({ value, label: t(`chart.ranges.${value}`) }))}
        />
      </div>
      {chooser}
      {body}
    </div>
  );
};

/**
 * The panel's chart: a chooser of the user's coins (the first by default); nothing without coins.
 * A coin on several exchanges is one choice per exchange, labelled with it.
 */
export const PanelPriceChart = ({ coins }: { coins: readonly { coin: string; exchange: Exchange }[] }) => {
  const { t } = useTranslation();
  const { coin: chosen } = useStore(chartChoice);
  const keyOf = (c: { coin: string; exchange: Exchange }) => `${c.coin}:${c.exchange}`;
  const current = coins.find((c) => keyOf(c) === chosen) ?? coins[0];
  if (!current) return null;
  const repeated = (name: string) => coins.filter((c) => c.coin === name).length > 1;
  return (
    <CoinPriceChart
      coin={current.coin}
      exchange={current.exchange}
      whenSeen
      chooser={
        coins.length > 1 ? (
          <Segmented
            label={t('chart.coin')}
            value={keyOf(current)}
            onChange={(next) => chartChoice.set((state) => ({ ...state, coin: next }))}
            options={coins.map((c) => ({
              value: keyOf(c),
              label: repeated(c.coin) ? `${c.coin} · ${EXCHANGE_NAMES[c.exchange]}` : c.coin,
            }))}
          />
        ) : null
      }
    />
  );
};
