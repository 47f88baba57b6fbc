import { AppError } from '@gridbot/services';
import fp from 'fastify-plugin';

/**
 * Bearer-token check for every contract marked `auth: true` (spec §4: 401 on anything missing,
 * invalid or expired). Runs before the per-route rate limit so limits are keyed by user.
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      const endpoint = request.routeOptions.config.endpoint;
      if (!endpoint?.auth) return;
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match?.[1]) throw new AppError('UNAUTHORIZED');
      request.session = await app.deps.ctx.auth.tokens.verify(match[1]);
    });
  },
  { name: 'auth' },
);
