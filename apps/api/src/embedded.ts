import { ConfigError, loadEnv } from '@gridbot/config';
import { startApi } from './start';

/**
 * `npm start`: everything in one process on PGlite with no external service (DESIGN §2). Demo
 * mode is on unless DEMO=0. The worker, watcher, bot and sandbox join this process as their
 * issues land.
 */
const main = async () => {
  const started = Date.now();
  const env = loadEnv({ DEMO: '1', ...process.env });
  const { app, publicUrl, demo, webServed } = await startApi({ env, migrate: true });
  const lines = [
    '',
    `  Grid bot platform is running (${((Date.now() - started) / 1000).toFixed(1)} s): ${publicUrl}`,
    demo ? `  Demo: open ${publicUrl} in a browser — you are signed in as @demo_trader.` : '',
    webServed ? '' : '  (web app not built: run `npm run build -w @gridbot/web`)',
    `  API docs: ${publicUrl}/docs`,
    '',
  ];
  process.stdout.write(`${lines.filter((l) => l !== '').join('\n')}\n`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
