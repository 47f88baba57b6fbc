import type { AppConfig } from '@gridbot/contracts';
import type { ServiceContext } from '../context/service-context';

/** The installation's public settings: the support link every screen offers (SUPPORT_URL). */
export const getAppConfig = async (ctx: Pick<ServiceContext, 'env'>): Promise<AppConfig> => ({
  supportUrl: ctx.env.SUPPORT_URL,
});
