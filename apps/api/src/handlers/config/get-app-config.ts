import { getAppConfig } from '@gridbot/contracts';
import { getAppConfig as readAppConfig } from '@gridbot/services';
import { handle } from '../../handle';

export const getAppConfigHandler = handle(getAppConfig, (ctx) => readAppConfig(ctx));
