import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

/**
 * Serves the built mini app on the API's port. Browser navigations (Accept: text/html) to any
 * app route get index.html; API calls send Accept: application/json (docs/product.md#calls), so a path both
 * use — `/partners/` — still reaches the API.
 */
export const webPlugin = fp(
  async (app) => {
    const root = app.deps.webDist;
    if (!root) return;
    await app.register(fastifyStatic, { root, wildcard: true, index: false, maxAge: '1h', immutable: false });
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || request.url.startsWith('/docs')) return;
      const accept = request.headers.accept ?? '';
      if (!accept.includes('text/html')) return;
      if (/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')) return;
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web' },
);
