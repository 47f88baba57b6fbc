// A process built with runMain for the lifecycle test: argv[2] = "ok" | "fail-start" | "hang".
import { ConfigError } from '@gridbot/config';
import { runMain } from '../../src/run-main';

const mode = process.argv[2];
runMain(
  'child',
  async () => {
    if (mode === 'fail-start') throw new ConfigError('PORT: must be a port');
    const keepAlive = setInterval(() => undefined, 1000);
    process.stdout.write('started\n');
    return {
      stop: async () => {
        process.stdout.write('stop called\n');
        if (mode === 'hang') return new Promise<void>(() => undefined);
        clearInterval(keepAlive);
      },
    };
  },
  { stopDeadlineMs: 1500 },
);
