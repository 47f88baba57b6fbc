import { isCataloguedError } from '@gridbot/contracts';
import {
  approveWithdrawal,
  freezeWithdrawals,
  liftFreeze,
  listPendingWithdrawals,
  rejectWithdrawal,
  type ServiceContext,
  userIdOfUid,
} from '@gridbot/services';
import { runSweepsCommand } from './sweeps-commands';

export const WALLET_CLI_USAGE = `usage: npm run wallet -- <command> [--operator <name>]
  withdrawals list                          pending withdrawals, oldest first
  withdrawals approve <id>                  pending → approved (the watcher then sends it)
  withdrawals reject <id> --reason "<why>"  pending → rejected, refunded to main, user notified
  freeze <uid>                              freeze the user's withdrawals (unsent ones stopped, refunded)
  unfreeze <uid>                            lift the user's withdrawal freeze
       npm run wallet -- sweeps <command> [--address <T…>] [--operator <name>]
  sweeps list                               open and recent sweeps, addresses waiting to be swept
  sweeps cost [--address <T…>]              what sweeping each eligible address would cost now (asks TRON_NODE_URL)
  sweeps run [--address <T…>]               queue sweeps; the sweeper (watcher process) carries them out`;

type Output = { out: (line: string) => void; err: (line: string) => void };

/** `--name value` pairs and the remaining words. */
export const parseArgs = (argv: readonly string[]) => {
  const words: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg.startsWith('--')) {
      flags.set(arg.slice(2), argv[i + 1] ?? '');
      i += 1;
    } else words.push(arg);
  }
  return { words, flags };
};

const idOf = (text: string | undefined): number | null =>
  text && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;

/**
 * The operator's wallet commands (docs/wallet.md#operator-cli) as a transport over the wallet
 * services: parses the words, calls the service, prints. Returns the exit code: 0 done, 1 refused
 * (the service's catalogue code and message), 2 usage.
 */
export const runWalletCli = async (
  ctx: ServiceContext,
  argv: readonly string[],
  io: Output,
  defaultOperator: string,
): Promise<number> => {
  const { words, flags } = parseArgs(argv);
  const [area, command, idText] = words;
  const operator = `operator:${flags.get('operator') || defaultOperator}`;
  if (area === 'sweeps')
    return runSweepsCommand(ctx, { command, address: flags.get('address'), operator }, io);
  if (area === 'freeze' || area === 'unfreeze') return runFreezeCommand(ctx, area, command, operator, io);
  if (area !== 'withdrawals') {
    io.err(WALLET_CLI_USAGE);
    return 2;
  }
  try {
    if (command === 'list') {
      const pending = await listPendingWithdrawals(ctx);
      if (pending.length === 0) io.out('no pending withdrawals');
      for (const w of pending) {
        io.out(
          `#${w.id}  ${w.createdAt.toISOString()}  uid ${w.uid} @${w.username}  ${w.kind}  ${w.amount} USDT (fee ${w.networkFee})  → ${w.toAddress}${w.reviewReason ? `  (${w.reviewReason})` : ''}`,
        );
      }
      return 0;
    }
    const withdrawalId = idOf(idText);
    if ((command === 'approve' || command === 'reject') && withdrawalId === null) {
      io.err(`${command}: a withdrawal id is required\n${WALLET_CLI_USAGE}`);
      return 2;
    }
    if (command === 'approve') {
      const done = await approveWithdrawal(ctx, { withdrawalId: withdrawalId as number, operator });
      io.out(`#${done.id} approved by ${operator}`);
      return 0;
    }
    if (command === 'reject') {
      const reason = flags.get('reason')?.trim();
      if (!reason) {
        io.err(`reject: --reason "<why>" is required (the user is told)\n${WALLET_CLI_USAGE}`);
        return 2;
      }
      const done = await rejectWithdrawal(ctx, { withdrawalId: withdrawalId as number, operator, reason });
      io.out(`#${done.id} rejected by ${operator}; refunded to the user's main balance`);
      return 0;
    }
    io.err(WALLET_CLI_USAGE);
    return 2;
  } catch (error) {
    if (!isCataloguedError(error)) throw error;
    io.err(`refused: ${error.catalogueCode} — ${error.message}`);
    return 1;
  }
};

/**
 * `freeze <uid>` / `unfreeze <uid>` (docs/wallet.md#freeze): an operator freezes an account's
 * withdrawals, or lifts a freeze at any time; `decidedBy` / `lifted_by` name the operator.
 */
const runFreezeCommand = async (
  ctx: ServiceContext,
  action: 'freeze' | 'unfreeze',
  uidText: string | undefined,
  operator: string,
  io: Output,
): Promise<number> => {
  const uid = idOf(uidText);
  if (uid === null) {
    io.err(`${action}: a user's UID is required\n${WALLET_CLI_USAGE}`);
    return 2;
  }
  try {
    const userId = await userIdOfUid(ctx, { uid });
    if (action === 'freeze') {
      const done = await freezeWithdrawals(ctx, { userId, by: operator });
      io.out(
        done.frozen
          ? `uid ${uid}: withdrawals frozen by ${operator}; ${done.stopped} withdrawal(s) stopped and refunded`
          : `uid ${uid}: already frozen since ${done.freeze.since} by ${done.freeze.by}`,
      );
      return 0;
    }
    await liftFreeze(ctx, { userId, by: operator, asOperator: true });
    io.out(`uid ${uid}: withdrawal freeze lifted by ${operator}`);
    return 0;
  } catch (error) {
    if (!isCataloguedError(error)) throw error;
    io.err(`refused: ${error.catalogueCode} — ${error.message}`);
    return 1;
  }
};
