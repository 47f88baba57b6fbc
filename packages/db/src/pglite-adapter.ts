import type { PGlite } from '@electric-sql/pglite';
import {
  DriverAdapterError,
  isDriverAdapterError,
  type SqlDriverAdapterFactory,
  type SqlQueryable,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * PGlite is PostgreSQL 17, which reports ON DELETE RESTRICT violations as 23001. adapter-pg maps
 * that code to P2003 (like 23503 on PostgreSQL 15); pglite-prisma-adapter 0.7.2 does not, so the
 * same delete would surface as the generic P2039 in embedded mode. Map it the way adapter-pg does.
 */
const mapRestrictViolation = (error: unknown): never => {
  // Duck-typed: the adapter bundles its own copy of driver-adapter-utils (instanceof fails).
  if (isDriverAdapterError(error) && error.cause.kind === 'postgres' && error.cause.code === '23001') {
    const index = /constraint "([^"]+)"/.exec(error.cause.message)?.[1];
    throw new DriverAdapterError({
      kind: 'RestrictViolation',
      constraint: index ? { index } : undefined,
      originalCode: error.cause.code,
      originalMessage: error.cause.message,
    });
  }
  throw error;
};

const patchQueryable = <T extends SqlQueryable>(queryable: T): T => {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query) => queryRaw(query).catch(mapRestrictViolation);
  queryable.executeRaw = (query) => executeRaw(query).catch(mapRestrictViolation);
  return queryable;
};

/** The runtime adapter factory for PGlite (pglite-prisma-adapter with the error mapping above). */
export const pgliteAdapter = (pglite: PGlite): SqlDriverAdapterFactory => {
  const inner = new PrismaPGlite(pglite);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => {
      const adapter = patchQueryable(await inner.connect());
      const startTransaction = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel): Promise<Transaction> =>
        patchQueryable(await startTransaction(isolationLevel));
      return adapter;
    },
  };
};
