import type { AnyEndpoint } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import type { Logger, Readiness } from '@gridbot/runtime';
import type { ServiceContext, VerifiedSession } from '@gridbot/services';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

/** What the HTTP app is built from: the process's service context and the HTTP-only parts. */
export type AppDeps = {
  ctx: ServiceContext;
  /** The process's pino logger (the request log and the services share it). */
  logger: Logger;
  /** Redis for rate limits when distributed; absent in embedded mode. */
  redis?: Redis | undefined;
  /** Prefix of every Redis key this app writes (tests isolate themselves with their own). */
  redisPrefix?: string | undefined;
  /** Folder of the built web app to serve on the same port. */
  webDist?: string | undefined;
  /** Demo mode only: the account the demo launch data signs in. */
  demoUser?: User | undefined;
  /** The URL the app is reachable at (printed, and used in demo launch URLs). */
  publicUrl: string;
  /** What /readyz asks (default: the database, Redis when given, the queue). */
  readiness?: Readiness | undefined;
};

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Handlers by contract id; a contract without one answers 501 until its feature lands. */
export type HandlerMap = Partial<Record<AnyEndpoint['id'], Handler>>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    session: VerifiedSession | null;
  }
  interface FastifyContextConfig {
    endpoint?: AnyEndpoint;
    /** /healthz, /readyz, /metrics: no contract, no auth, no rate limit, never the web app. */
    operational?: boolean;
  }
}
