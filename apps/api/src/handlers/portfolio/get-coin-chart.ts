import { getCoinChart } from '@gridbot/contracts';
import { getCoinChart as loadCoinChart } from '@gridbot/services';
import { handle } from '../../handle';

export const getCoinChartHandler = handle(getCoinChart, (ctx, { query, session }) =>
  loadCoinChart(ctx, {
    userId: session.userId,
    coin: query.coin,
    exchange: query.exchange,
    range: query.range,
  }),
);
