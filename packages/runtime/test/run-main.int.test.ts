import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./support/run-main-child.ts', import.meta.url));

const start = (mode: string) => {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return { proc, out: () => stdout, err: () => stderr };
};

const started = async (proc: ChildProcess, out: () => string) => {
  while (!out().includes('started')) await once(proc.stdout!, 'data');
};

const exitCode = async (proc: ChildProcess) => {
  const [code] = (await once(proc, 'exit')) as [number | null];
  return code;
};

describe('runMain: one stop path for every app', () => {
  it('stops once on SIGTERM, even when the signal arrives twice, and exits 0', async () => {
    const { proc, out, err } = start('ok');
    await started(proc, out);
    proc.kill('SIGTERM');
    proc.kill('SIGINT');
    expect(await exitCode(proc)).toBe(0);
    expect(out().match(/stop called/g)).toHaveLength(1);
    expect(err()).toContain('child: stopped');
  });

  it('a start-up failure prints the operator message without a stack trace and exits 1', async () => {
    const { proc, err } = start('fail-start');
    expect(await exitCode(proc)).toBe(1);
    expect(err()).toContain('child: PORT: must be a port');
    expect(err()).not.toContain('    at ');
  });

  it('a stop that hangs past its deadline ends the process with exit code 1', async () => {
    const { proc, out, err } = start('hang');
    await started(proc, out);
    proc.kill('SIGTERM');
    expect(await exitCode(proc)).toBe(1);
    expect(err()).toContain('stop took too long');
  });
});
