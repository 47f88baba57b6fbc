import { getCoin } from '@gridbot/contracts';
import { getPortfolioCoin } from '@gridbot/services';
import { handle } from '../../handle';

export const getCoinHandler = handle(getCoin, (ctx, { params, query, session }) =>
  getPortfolioCoin(ctx, {
    userId: session.userId,
    coin: params.coin,
    exchange: query.exchange,
    period: query.period,
  }),
);
