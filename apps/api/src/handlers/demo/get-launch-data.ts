import { getLaunchData } from '@gridbot/contracts';
import { AppError, launchUrl, signLaunchData } from '@gridbot/services';
import { handle } from '../../handle';

/** Demo mode only (the route is not registered otherwise): fresh signed launch data per call. */
export const getLaunchDataHandler = handle(getLaunchData, async (_input, request) => {
  const { demoUser, botToken, publicUrl } = request.server.deps;
  if (!demoUser) throw new AppError('NOT_FOUND');
  const initData = signLaunchData({ botToken, user: demoUser });
  return { initData, url: launchUrl(publicUrl, initData) };
});
