import type { Env } from '@gridbot/config';
import type { AnyEndpoint } from '@gridbot/contracts';
import type { PrismaClient, User } from '@gridbot/db';
import type { SessionClaims, SessionTokens } from '@gridbot/services';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

/** Everything the API needs from the outside, built by the entry point (embedded or distributed). */
export type AppDeps = {
  env: Env;
  prisma: PrismaClient;
  /** Redis for rate limits when distributed; absent in embedded mode. */
  redis?: Redis | undefined;
  /** Prefix of every Redis key this app writes (tests isolate themselves with their own). */
  redisPrefix?: string | undefined;
  tokens: SessionTokens;
  /** The key of initData signatures (BOT_TOKEN, or the demo's generated token). */
  botToken: string;
  /** Folder of the built web app to serve on the same port. */
  webDist?: string | undefined;
  /** Demo mode only: the account the demo launch data signs in. */
  demoUser?: User | undefined;
  /** The URL the app is reachable at (printed, and used in demo launch URLs). */
  publicUrl: string;
};

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Handlers by contract id; a contract without one answers 501 until its feature lands. */
export type HandlerMap = Partial<Record<AnyEndpoint['id'], Handler>>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    session: SessionClaims | null;
  }
  interface FastifyContextConfig {
    endpoint?: AnyEndpoint;
  }
}
