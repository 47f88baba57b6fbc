import {
  type AutoscaleInfo,
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { localizeDecimal, type NumberSymbols, stepDecimals } from '../../format/decimal';
import {
  markersOnCandles,
  type PriceChartCandle,
  type PriceChartLine,
  type PriceChartMarker,
  precisionOf,
} from './price-chart-data';

/**
 * The price chart drawn with lightweight-charts (loaded lazily: the library is ~60 KB gzip and no
 * first screen needs it). It takes plain data — the contracts' decimal strings and ISO times — so
 * the coin page, the panel and a backtest can all draw with it; prices become doubles only to be
 * drawn. Colours are the Telegram theme's (CSS variables), read when the data or theme changes.
 */
export type { PriceChartCandle, PriceChartLine, PriceChartMarker } from './price-chart-data';

export type PriceChartProps = {
  candles: readonly PriceChartCandle[];
  /** Fills: drawn on the candle they happened in, buys below it and sells above it. */
  markers: readonly PriceChartMarker[];
  /** Horizontal price lines with an axis label (the resting ladder). */
  lines: readonly PriceChartLine[];
  /** What the chart shows, for screen readers. */
  label: string;
  /** BCP 47 locale of the axis labels. */
  locale: string;
  /** The market's price tick: the axis and the lines' labels at it (null: from the candles). */
  tick?: string | null;
  height?: number;
};

/** How long a resize waits for the next one before redrawing. */
export const RESIZE_DEBOUNCE_MS = 150;

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000) as UTCTimestamp;

type Palette = {
  hint: string;
  grid: string;
  up: string;
  down: string;
  buy: string;
  sell: string;
};

/**
 * A CSS colour (variables, color-mix) as the canvas's rgba: a probe element resolves the cascade,
 * a 1×1 canvas turns whatever colour syntax the browser computed into bytes.
 */
const resolveColors = (host: HTMLElement, values: Record<keyof Palette, string>): Palette => {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  host.append(probe);
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const out = {} as Palette;
  for (const [name, css] of Object.entries(values) as [keyof Palette, string][]) {
    probe.style.color = css;
    const computed = getComputedStyle(probe).color;
    if (!context) {
      out[name] = computed;
      continue;
    }
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = computed;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    out[name] = `rgba(${r}, ${g}, ${b}, ${((a ?? 255) / 255).toFixed(3)})`;
  }
  probe.remove();
  return out;
};

const themeColors = (host: HTMLElement) =>
  resolveColors(host, {
    hint: 'var(--hint-text)',
    grid: 'color-mix(in srgb, var(--hint) 18%, transparent)',
    up: 'var(--positive)',
    down: 'var(--negative)',
    buy: 'var(--accent)',
    sell: 'var(--positive-text)',
  });

const symbolsOf = (locale: string): NumberSymbols => {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
};

type Chart = {
  api: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
  lines: IPriceLine[];
};

export const PriceChart = ({
  candles,
  markers,
  lines,
  label,
  locale,
  tick = null,
  height = 260,
}: PriceChartProps) => {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const fitted = useRef(false);
  const [palette, setPalette] = useState<Palette | null>(null);

  // Created once per mount, removed on unmount; resizes follow the element, debounced.
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const api = createChart(element, {
      width: element.clientWidth,
      height,
      // No built-in TradingView logo from the first frame (a link inside role="img" breaks
      // nested-interactive until the theme's options arrive): the card carries the attribution.
      layout: { attributionLogo: false },
      handleScale: { mouseWheel: false, pinch: true, axisPressedMouseMove: true },
      handleScroll: { mouseWheel: false, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
      rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.12, bottom: 0.12 } },
      // Room right of the last candle, so the last time label is not cut by the price axis.
      timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false, rightOffsetPixels: 18 },
    });
    // The last price's line is solid: dashed and dotted are the ladder's (the legend says so).
    const series = api.addSeries(CandlestickSeries, {
      borderVisible: false,
      priceLineVisible: true,
      priceLineStyle: LineStyle.Solid,
    });
    chart.current = { api, series, markers: createSeriesMarkers(series, []), lines: [] };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (element.clientWidth > 0) api.resize(element.clientWidth, height);
      }, RESIZE_DEBOUNCE_MS);
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      chart.current = null;
      fitted.current = false;
      api.remove();
    };
  }, [height]);

  // The theme's colours, again whenever Telegram changes the theme (the SDK rewrites the root's
  // CSS variables).
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let last = '';
    const read = () => {
      const next = themeColors(element);
      const key = JSON.stringify(next);
      if (key !== last) {
        last = key;
        setPalette(next);
      }
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    return () => observer.disconnect();
  }, []);

  const precision = useMemo(() => precisionOf(candles, tick), [candles, tick]);
  // A tick that is not a power of ten (0.05) is the scale's smallest move too.
  const minMove = tick && stepDecimals(tick) !== null ? Number(tick) : 10 ** -precision;

  useEffect(() => {
    const element = host.current;
    const current = chart.current;
    const colors = palette;
    if (!element || !current || !colors) return;
    const symbols = symbolsOf(locale);
    // 24-hour clock everywhere: "09:00" fits under a candle where "09:00 AM" is cut.
    const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
    const full = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const price = (value: number) => localizeDecimal(value.toFixed(precision), symbols);
    const dateOf = (t: Time) => new Date((t as number) * 1000);
    current.api.applyOptions({
      layout: {
        // The licence's link to TradingView is the card's attribution line (coin-chart.tsx): the
        // built-in logo is a link smaller than a finger.
        attributionLogo: false,
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: colors.hint,
        fontSize: 11,
        fontFamily: getComputedStyle(element).fontFamily,
      },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      localization: { locale, priceFormatter: price, timeFormatter: (t: Time) => full.format(dateOf(t)) },
      timeScale: {
        // Local time on the axis: days at day marks, hours and minutes in between.
        tickMarkFormatter: (t: Time, type: TickMarkType) =>
          type === TickMarkType.Year || type === TickMarkType.Month || type === TickMarkType.DayOfMonth
            ? day.format(dateOf(t))
            : time.format(dateOf(t)),
      },
    });
    const { series } = current;
    series.applyOptions({
      upColor: colors.up,
      downColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
      priceFormat: { type: 'price', precision, minMove },
      // The ladder stays in view: the scale spans the candles and every labelled line.
      autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
        const range = base();
        const prices = lines.filter((line) => line.labelled !== false).map((line) => Number(line.price));
        if (!range?.priceRange || prices.length === 0) return range;
        return {
          ...range,
          priceRange: {
            minValue: Math.min(range.priceRange.minValue, ...prices),
            maxValue: Math.max(range.priceRange.maxValue, ...prices),
          },
        };
      },
    });
    series.setData(
      candles.map((c) => ({
        time: seconds(c.time),
        open: Number(c.open),
        high: Number(c.high),
        low: Number(c.low),
        close: Number(c.close),
      })),
    );
    current.markers.setMarkers(markersOnCandles(candles, markers, colors));
    for (const line of current.lines) series.removePriceLine(line);
    current.lines = lines.map((line) =>
      series.createPriceLine({
        price: Number(line.price),
        color: line.offBook ? colors.hint : line.side === 'buy' ? colors.buy : colors.sell,
        lineWidth: 1,
        lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Dotted,
        axisLabelVisible: line.labelled !== false,
        title: line.labelled === false ? '' : line.title,
      }),
    );
    // Fit once per mount (a new coin or range mounts a new chart): a refresh keeps the user's zoom.
    if (!fitted.current && candles.length > 0) {
      fitted.current = true;
      current.api.timeScale().fitContent();
    }
  }, [candles, markers, lines, locale, precision, minMove, palette]);

  return (
    <div
      ref={host}
      className="price-chart__canvas"
      role="img"
      aria-label={label}
      style={{ height }}
      data-testid="price-chart"
      data-candles={candles.length}
      data-markers={markers.length}
      data-lines={lines.length}
      data-off-book-lines={lines.filter((line) => line.offBook).length}
    />
  );
};
