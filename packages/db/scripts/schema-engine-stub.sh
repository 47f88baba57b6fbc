#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded offline.
# `prisma generate` only checks that PRISMA_SCHEMA_ENGINE_BINARY exists; it never runs it.
# Anything that does run it (prisma migrate/db push/studio...) must use scripts/migrate.ts instead.
echo "The native Prisma schema engine is not available here. Use: npm run db:migrate -- dev|deploy|status (packages/db/scripts/migrate.ts)." >&2
exit 1
