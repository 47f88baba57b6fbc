import { getLaunchData } from '@gridbot/contracts';
import { AppError, createDemoLaunchData } from '@gridbot/services';
import { handle } from '../../handle';

/** Demo mode only (the route is not registered otherwise): fresh signed launch data per call. */
export const getLaunchDataHandler = handle(getLaunchData, async (ctx, _input, request) => {
  const { demoUser, publicUrl } = request.server.deps;
  if (!demoUser) throw new AppError('NOT_FOUND');
  return createDemoLaunchData(ctx, { user: demoUser, publicUrl });
});
