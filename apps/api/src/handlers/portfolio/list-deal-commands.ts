import { listDealCommands } from '@gridbot/contracts';
import { listDealCommands as listCoinDealCommands } from '@gridbot/services';
import { handle } from '../../handle';

export const listDealCommandsHandler = handle(listDealCommands, (ctx, { query, session }) =>
  listCoinDealCommands(ctx, { userId: session.userId, coinBotId: query.coin_user_id }),
);
