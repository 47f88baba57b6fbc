import { USAGE } from './replay/usage';

const argv = process.argv.slice(2);
const helpOnly = argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h');

if (helpOnly) {
  // Help without loading the engine (decimal.js, the settings contracts): answers at node's start-up speed.
  process.stdout.write(`${USAGE}\n`);
} else {
  const { runReplayCli } = await import('./replay/run-replay-cli');
  // exitCode rather than exit(): lets a large JSON report on a pipe drain before the process ends.
  process.exitCode = runReplayCli(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTty: process.stderr.isTTY === true,
  });
}
