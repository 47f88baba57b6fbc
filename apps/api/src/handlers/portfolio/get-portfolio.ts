import { getPortfolio } from '@gridbot/contracts';
import { getUserPortfolio } from '@gridbot/services';
import { handle } from '../../handle';

export const getPortfolioHandler = handle(getPortfolio, (ctx, { query, session }) =>
  getUserPortfolio(ctx, { userId: session.userId, period: query.period }),
);
