import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { readInlineScriptHashes } from './inline-scripts';

/**
 * Security headers and CORS. The mini app runs inside Telegram's web clients in an iframe, so
 * framing is allowed for Telegram's origins only. CORS is open only to WEB_ORIGIN (when the web
 * app is hosted elsewhere); same-origin use needs none. The web app's inline theme script is allowed
 * by its hash, never by 'unsafe-inline' (docs/security.md#content-security-policy).
 */
export const securityPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      frameguard: false,
      crossOriginEmbedderPolicy: false,
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://telegram.org', ...readInlineScriptHashes(app.deps.webDist)],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'],
        },
      },
    });
    const origin = app.deps.ctx.env.WEB_ORIGIN;
    await app.register(cors, {
      origin: origin ? [origin] : false,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Requested-With', 'Accept-Language'],
      maxAge: 600,
    });
  },
  { name: 'security' },
);
