import { defineConfig } from 'prisma/config';

// Read by the Prisma CLI (`prisma generate`) when run from packages/db; paths are relative to this
// file. No datasource URL: the CLI never connects (migrations go through scripts/migrate.ts and the
// client gets a driver adapter at run time). Default export because the Prisma CLI requires it.
export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
});
