import { getProfitChart } from '@gridbot/contracts';
import { getProfitChart as profitChart } from '@gridbot/services';
import { handle } from '../../handle';

export const getProfitChartHandler = handle(getProfitChart, (ctx, { query, session }) =>
  profitChart(ctx, { userId: session.userId, uid: query.user_id, days: query.days }),
);
