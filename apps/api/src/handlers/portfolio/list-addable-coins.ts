import { listAddableCoins } from '@gridbot/contracts';
import { listAddablePortfolioCoins } from '@gridbot/services';
import { handle } from '../../handle';

export const listAddableCoinsHandler = handle(listAddableCoins, (ctx, { query, session }) =>
  listAddablePortfolioCoins(ctx, { userId: session.userId, search: query.search, exchange: query.exchange }),
);
