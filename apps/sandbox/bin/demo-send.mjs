#!/usr/bin/env node
// `npm run demo:send -- <address> <amount> [--fake] [--fail]`: sends USDT from the sandbox TRON
// node's faucet to an address (a user's deposit address in the demo). --fake sends the look-alike
// token that also calls itself USDT, --fail a transfer that reverts on chain. Talks to the control
// API of the running node: SANDBOX_TRON_URL, else http://127.0.0.1:$SANDBOX_TRON_PORT (3101).
const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const [to, amount] = args.filter((a) => !a.startsWith('--'));
if (!to || !amount || !/^\d+(\.\d{1,6})?$/.test(amount)) {
  process.stderr.write(
    'usage: npm run demo:send -- <TRON address> <USDT amount, e.g. 25.5> [--fake] [--fail]\n',
  );
  process.exit(2);
}
const base = process.env.SANDBOX_TRON_URL ?? `http://127.0.0.1:${process.env.SANDBOX_TRON_PORT ?? '3101'}`;
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
  if (!response.ok) {
    process.stderr.write(`the sandbox TRON node refused: ${answer.error ?? JSON.stringify(answer)}\n`);
    process.exit(1);
  }
  const status = await (await fetch(`${base}/_sandbox/tron/status`)).json();
  process.stdout.write(
    `sent ${amount} ${flags.has('--fake') ? 'look-alike USDT' : 'USDT'} to ${to}: txid ${answer.txid}\n` +
      `It lands in the next block (head ${status.head}) and is credited once solidified ` +
      `(${status.solidityLag + 1} blocks, about ${Math.round(((status.solidityLag + 1) * status.blockTimeMs) / 1000)} s).\n`,
  );
} catch (error) {
  process.stderr.write(
    `cannot reach the sandbox TRON node at ${base} (is npm start running?): ${error.message}\n`,
  );
  process.exit(1);
}
