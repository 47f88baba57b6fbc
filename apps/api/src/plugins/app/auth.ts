import { AppError, checkSessionUser } from '@gridbot/services';
import fp from 'fastify-plugin';

/**
 * Bearer-token check for every contract marked `auth: true` (docs/product.md#behaviour: 401 on anything missing,
 * invalid or expired). It runs before the per-route rate limit so limits are keyed by user; failed
 * tokens are counted per IP, so a flood of bad tokens meets a 429 (docs/security.md#rate-limits).
 *
 * A correctly signed token is then checked against its account (docs/security.md#sessions): a
 * deleted or blocked user, or a session issued before the account's sessions were ended, is the
 * same 401 `UNAUTHORIZED` on every call. One read by primary key, no cache, so an ended session is
 * refused at once by every replica. It runs before the rate limit on purpose: an ended token must
 * not spend its user's budget (a thief could otherwise keep the owner's new session at 429).
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
        const session = await app.deps.ctx.auth.tokens.verify(match[1]);
        await checkSessionUser(app.deps.ctx, session);
        request.session = session;
      } catch (error) {
        // A valid token always passes (neighbours behind one address are never locked out); a
        // flood of missing, bad or ended ones from an address meets 429 once its budget is spent.
        if ((await app.authFailures(request)).isExceeded) throw new AppError('RATE_LIMITED');
        throw error;
      }
    });
  },
  { name: 'auth', dependencies: ['rate-limit'] },
);
