import { runReplayCli } from './replay/run-replay-cli';

// exitCode rather than exit(): lets a large JSON report on a pipe drain before the process ends.
process.exitCode = runReplayCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
});
