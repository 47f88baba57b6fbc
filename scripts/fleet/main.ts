// `npm run fleet`: the distributed topology as local processes on the local PostgreSQL and Redis
// (docs/operations.md#fleet). Builds the apps (turbo, cached), starts the fleet, prints its URL and
// a launch link that signs a new user in through the first invite code, and stops everything on
// Ctrl-C. Options: --apis N, --workers N, --port P, --database NAME (kept; default: a fresh one,
// dropped at the stop), --redis URL (default REDIS_URL or redis://127.0.0.1:6379/0), --quiet.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { launchUrl, signLaunchData } from '@gridbot/services';
import { startFleet } from './start-fleet';

const { values } = parseArgs({
  options: {
    apis: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    port: { type: 'string', default: '3000' },
    database: { type: 'string' },
    redis: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});

const count = (name: string, value: string, max: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    process.stderr.write(`--${name}: a whole number from 1 to ${max}\n`);
    process.exit(2);
  }
  return n;
};

const apis = count('apis', values.apis, 8);
const workers = count('workers', values.workers, 8);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write('--port: a port from 0 to 65535\n');
  process.exit(2);
}

if (!values['no-build']) {
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const fleet = await startFleet({
  apis,
  workers,
  port,
  echo: !values.quiet,
  ...(values.database ? { database: values.database } : {}),
  ...(values.redis ? { redisUrl: values.redis } : {}),
});
const newcomer = {
  telegramId: BigInt(Date.now()),
  username: `fleet_user_${Date.now() % 100_000}`,
  firstName: 'Fleet',
  lastName: null,
};
const startParam = `ref_${fleet.secrets.rootReferralCode}`;
const initData = signLaunchData({ botToken: fleet.secrets.botToken, user: newcomer, startParam });
process.stdout.write(
  [
    '',
    `fleet is running: ${fleet.url} (${[...fleet.processes.keys()].join(', ')})`,
    `  database ${fleet.databaseUrl}, redis ${fleet.redisUrl}, logs in .data/fleet/logs`,
    `  open as a new user: ${launchUrl(fleet.url, initData, startParam)}`,
    '  Ctrl-C stops it.',
    '',
  ].join('\n'),
);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('fleet: stopping\n');
  fleet
    .stop()
    .then(() => {
      process.stdout.write('fleet: stopped\n');
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`fleet: stop failed: ${String(error)}\n`);
      process.exit(1);
    });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
