import { fromMicro } from '@gridbot/ledger';
import { getSystemSummary, type ServiceContext, type SystemSummary } from '@gridbot/services';
import { runUsersCommand, USERS_CLI_USAGE } from './users-commands';

export const OPS_CLI_USAGE = `usage: npm run -s ops -- <command> [--operator <name>]
  summary [--json]                          users, coin bots, queues, ledger totals and invariants,
                                            withdrawals waiting or on their way, the watcher's cursor,
                                            the hot wallet (USDT, TRX, energy, bandwidth), sweeps
${USERS_CLI_USAGE}`;

type Output = { out: (line: string) => void; err: (line: string) => void };

/** The summary as JSON: money as decimal USDT strings (never a float), block numbers as strings. */
export const summaryJson = (s: SystemSummary) => ({
  at: s.at.toISOString(),
  users: s.users,
  coinBots: s.coinBots,
  queueKind: s.queueKind,
  queues: s.queues,
  ledger: {
    usersMain: fromMicro(s.ledger.usersMain),
    usersFee: fromMicro(s.ledger.usersFee),
    system: Object.fromEntries(Object.entries(s.ledger.system).map(([code, b]) => [code, fromMicro(b)])),
    invariants: { ...s.ledger.invariants, totalSum: fromMicro(s.ledger.invariants.totalSum) },
  },
  withdrawals: {
    pending: { count: s.withdrawals.pending.count, amount: fromMicro(s.withdrawals.pending.amount) },
    inFlight: { count: s.withdrawals.inFlight.count, amount: fromMicro(s.withdrawals.inFlight.amount) },
    waiting: { count: s.withdrawals.waiting.count, amount: fromMicro(s.withdrawals.waiting.amount) },
  },
  watcher: {
    decidedUpTo: s.watcher.decidedUpTo?.toString() ?? null,
    seenUpTo: s.watcher.seenUpTo?.toString() ?? null,
  },
  // TRX has 6 decimals like USDT: fromMicro prints sun as TRX.
  hotWallet: s.hotWallet
    ? {
        address: s.hotWallet.address,
        usdt: fromMicro(s.hotWallet.usdt),
        trx: fromMicro(s.hotWallet.trxSun),
        energy: s.hotWallet.energyAvailable.toString(),
        energyLimit: s.hotWallet.energyLimit.toString(),
        bandwidth: s.hotWallet.bandwidthAvailable.toString(),
        energyPriceSun: s.hotWallet.energyPriceSun.toString(),
        readAt: s.hotWallet.readAt.toISOString(),
        lowUsdtSince: s.hotWallet.lowUsdtSince?.toISOString() ?? null,
        lowTrxSince: s.hotWallet.lowTrxSince?.toISOString() ?? null,
        waitingSince: s.hotWallet.waitingSince?.toISOString() ?? null,
      }
    : null,
  sweeps: {
    open: { count: s.sweeps.open.count, amount: fromMicro(s.sweeps.open.amount) },
    confirmed: { count: s.sweeps.confirmed.count, amount: fromMicro(s.sweeps.confirmed.amount) },
    trxCost: fromMicro(s.sweeps.trxCostSun),
  },
});

const hotWalletLines = (s: SystemSummary): string[] => {
  const w = s.hotWallet;
  if (!w) return ['hot wallet    not read yet (the watcher reads it every HOT_WALLET_CHECK_MS)'];
  const low = [w.lowUsdtSince ? 'USDT' : '', w.lowTrxSince ? 'TRX' : ''].filter(Boolean);
  return [
    `hot wallet    ${w.address}: ${fromMicro(w.usdt)} USDT, ${fromMicro(w.trxSun)} TRX, energy ${w.energyAvailable} of ${w.energyLimit}, bandwidth ${w.bandwidthAvailable}`,
    `              energy price ${w.energyPriceSun} sun, read ${w.readAt.toISOString()}${low.length > 0 ? `, LOW on ${low.join(' and ')}` : ''}`,
  ];
};

const queueLines = (s: SystemSummary): string[] => {
  // The embedded process keeps its queue in its own memory: another process cannot see it.
  if (s.queueKind === 'in-process') return ['queues        in process of the running app (REDIS_URL unset)'];
  return s.queues.map(
    (q) =>
      `queue         ${q.queue.padEnd(34)} waiting ${q.waiting}, active ${q.active}, delayed ${q.delayed}, oldest ${(q.oldestWaitingMs / 1000).toFixed(1)} s`,
  );
};

/** The summary as lines for a terminal. */
export const summaryLines = (s: SystemSummary): string[] => {
  const { invariants } = s.ledger;
  return [
    `at            ${s.at.toISOString()}`,
    `users         ${s.users}`,
    `coin bots     ${s.coinBots.running} running, ${s.coinBots.paused} paused, ${s.coinBots.dry} dry`,
    ...queueLines(s),
    `ledger        users main ${fromMicro(s.ledger.usersMain)} USDT, users fee ${fromMicro(s.ledger.usersFee)} USDT`,
    ...Object.entries(s.ledger.system).map(
      ([code, b]) => `              ${code.padEnd(30)} ${fromMicro(b)} USDT`,
    ),
    `invariants    ${invariants.ok ? 'ok' : 'BROKEN'} (sum of all balances ${fromMicro(invariants.totalSum)}, ${invariants.mismatches} mismatches)`,
    `withdrawals   ${s.withdrawals.pending.count} pending (${fromMicro(s.withdrawals.pending.amount)} USDT), ${s.withdrawals.inFlight.count} on their way (${fromMicro(s.withdrawals.inFlight.amount)} USDT)`,
    `              ${s.withdrawals.waiting.count} waiting for the hot wallet (${fromMicro(s.withdrawals.waiting.amount)} USDT)`,
    `watcher       deposits decided up to block ${s.watcher.decidedUpTo ?? '-'}, seen up to ${s.watcher.seenUpTo ?? '-'}`,
    ...hotWalletLines(s),
    `sweeps        ${s.sweeps.open.count} open (${fromMicro(s.sweeps.open.amount)} USDT), ${s.sweeps.confirmed.count} done (${fromMicro(s.sweeps.confirmed.amount)} USDT), cost ${fromMicro(s.sweeps.trxCostSun)} TRX`,
  ];
};

/**
 * The operator's system commands (docs/operations.md#operator-cli). Returns the exit code: 0 done,
 * 1 when the ledger's invariants do not hold (so a cron job or a script notices) or a `users`
 * command was refused, 2 usage.
 */
export const runOpsCli = async (
  ctx: ServiceContext,
  argv: readonly string[],
  io: Output,
  operator = 'unknown',
): Promise<number> => {
  if (argv[0] === 'users') return runUsersCommand(ctx, argv, io, operator, OPS_CLI_USAGE);
  const json = argv.includes('--json');
  const words = argv.filter((arg) => arg !== '--json');
  if (words[0] !== 'summary' || words.length > 1) {
    io.err(OPS_CLI_USAGE);
    return 2;
  }
  const summary = await getSystemSummary(ctx);
  if (json) io.out(JSON.stringify(summaryJson(summary), null, 2));
  else for (const line of summaryLines(summary)) io.out(line);
  return summary.ledger.invariants.ok ? 0 : 1;
};
