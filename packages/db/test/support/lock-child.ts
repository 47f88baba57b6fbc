// Takes only the folder lock (no PGlite), for the race test: waits for a line on stdin so that all
// racers call lockPgliteDir at the same moment, reports {"won":true} or {"won":false,"code":…},
// then holds what it won until stdin closes.
import { isDbError } from '../../src/db-error';
import { lockPgliteDir } from '../../src/pglite-lock';

const [dir] = process.argv.slice(2);
process.stdin.setEncoding('utf8');
process.stdin.once('data', () => {
  try {
    const lock = lockPgliteDir(dir as string);
    process.stdout.write(`${JSON.stringify({ won: true, pid: process.pid })}\n`);
    process.stdin.on('end', () => {
      lock.release();
      process.exit(0);
    });
  } catch (error) {
    process.stdout.write(
      `${JSON.stringify({ won: false, code: isDbError(error) ? error.code : String(error) })}\n`,
    );
    process.exit(0);
  }
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
