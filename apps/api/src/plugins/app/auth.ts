import { AppError } from '@gridbot/services';
import fp from 'fastify-plugin';

/**
 * Bearer-token check for every contract marked `auth: true` (docs/product.md#behaviour: 401 on anything missing,
 * invalid or expired). It runs before the per-route rate limit so limits are keyed by user; failed
 * tokens are counted per IP, so a flood of bad tokens meets a 429 (docs/security.md#rate-limits).
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      const endpoint = request.routeOptions.config.endpoint;
      if (!endpoint?.auth) return;
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      try {
        if (!match?.[1]) throw new AppError('UNAUTHORIZED');
        request.session = await app.deps.ctx.auth.tokens.verify(match[1]);
      } catch (error) {
        // A valid token always passes (neighbours behind one address are never locked out); a
        // flood of missing or bad ones from an address meets 429 once its budget is spent.
        if ((await app.authFailures(request)).isExceeded) throw new AppError('RATE_LIMITED');
        throw error;
      }
    });
  },
  { name: 'auth', dependencies: ['rate-limit'] },
);
