import { COIN_RATING_MIN_BOTS, getCoinRating } from '@gridbot/contracts';
import { getCoinRating as rateCoins } from '@gridbot/services';
import { handle } from '../../handle';

export const getCoinRatingHandler = handle(getCoinRating, (ctx, { query, session }) =>
  rateCoins(ctx, { userId: session.userId, day: query.date, minBots: COIN_RATING_MIN_BOTS }),
);
