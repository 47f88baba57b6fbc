#!/usr/bin/env node
// `npm run demo:send -- <address> <amount> [--fake] [--fail]`: sends USDT from the sandbox TRON
// node's faucet to an address (a user's deposit address in the demo). --fake sends the look-alike
// token that also calls itself USDT, --fail a transfer that reverts on chain.
//
// It talks to the node of the demo that runs from this data folder: `npm start` writes its
// addresses to demo-run.json beside the PGlite folder (PGLITE_DIR, default .data/pglite;
// apps/standalone/src/run-file.ts) and removes it when it stops. No running demo there: it refuses,
// rather than guess a port another local demo may hold. SANDBOX_TRON_URL names a node explicitly.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const [to, amount] = args.filter((a) => !a.startsWith('--'));
if (!to || !amount || !/^\d+(\.\d{1,6})?$/.test(amount)) {
  process.stderr.write(
    'usage: npm run demo:send -- <TRON address> <USDT amount, e.g. 25.5> [--fake] [--fail]\n',
  );
  process.exit(2);
}

const refuse = (message) => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

/** Whether a process with this pid runs (signal 0 only asks; EPERM: it runs as another user). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** The TRON node of the demo running from this data folder, or a refusal that says why not. */
const demoNode = () => {
  if (process.env.SANDBOX_TRON_URL) return process.env.SANDBOX_TRON_URL;
  const dataDir = dirname(resolve(process.env.PGLITE_DIR ?? '.data/pglite'));
  const runFile = join(dataDir, 'demo-run.json');
  let run;
  try {
    run = JSON.parse(readFileSync(runFile, 'utf8'));
  } catch {
    return refuse(`no demo is running from ${dataDir} (no ${runFile}): start it with npm start.`);
  }
  if (!Number.isInteger(run.pid) || !alive(run.pid) || typeof run.tronUrl !== 'string') {
    return refuse(
      `no demo is running from ${dataDir}: ${runFile} is left from process ${run.pid}, which has ended. Start it with npm start.`,
    );
  }
  return run.tronUrl;
};

const base = demoNode();
const body = {
  to,
  amount,
  ...(flags.has('--fake') ? { token: 'fake' } : {}),
  ...(flags.has('--fail') ? { fail: true } : {}),
};
try {
  const response = await fetch(`${base}/_sandbox/tron/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) refuse(`the sandbox TRON node refused: ${answer.error ?? JSON.stringify(answer)}`);
  const status = await (await fetch(`${base}/_sandbox/tron/status`)).json();
  process.stdout.write(
    `sent ${amount} ${flags.has('--fake') ? 'look-alike USDT' : 'USDT'} to ${to} on ${base}: txid ${answer.txid}\n` +
      `It lands in the next block (head ${status.head}) and is credited once solidified ` +
      `(${status.solidityLag + 1} blocks, about ${Math.round(((status.solidityLag + 1) * status.blockTimeMs) / 1000)} s).\n`,
  );
} catch (error) {
  refuse(`cannot reach the demo's sandbox TRON node at ${base}: ${error.message}`);
}
