import { isCataloguedError } from '@gridbot/contracts';
import {
  blockUid,
  endSessionsOfUid,
  type ServiceContext,
  type UserAccess,
  unblockUid,
} from '@gridbot/services';
import { parseArgs } from './wallet-commands';

export const USERS_CLI_USAGE = `  users end-sessions <uid>                  end every session of the account (it signs in again)
  users block <uid> --reason "<why>"        block the account: sessions end, sign-in is refused
  users unblock <uid>                       lift the block`;

type Output = { out: (line: string) => void; err: (line: string) => void };

const uidOf = (text: string | undefined): number | null =>
  text && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;

const accessLine = (user: UserAccess) =>
  `uid ${user.uid} @${user.username}: ${
    user.blockedAt
      ? `blocked since ${user.blockedAt.toISOString()} (${user.blockedReason ?? ''})`
      : 'not blocked'
  }, sessions valid from ${user.sessionsValidFrom?.toISOString() ?? '-'}`;

/**
 * `npm run -s ops -- users …` (docs/operations.md#users): the operator ends an account's sessions,
 * blocks or unblocks it. Returns the exit code: 0 done, 1 refused (unknown UID), 2 usage.
 */
export const runUsersCommand = async (
  ctx: ServiceContext,
  argv: readonly string[],
  io: Output,
  operatorName: string,
  usage: string,
): Promise<number> => {
  const { words, flags } = parseArgs(argv);
  const [, command, uidText, ...rest] = words;
  const uid = uidOf(uidText);
  const operator = `operator:${flags.get('operator') || operatorName}`;
  if (!command || !['end-sessions', 'block', 'unblock'].includes(command) || rest.length > 0) {
    io.err(usage);
    return 2;
  }
  if (uid === null) {
    io.err(`${command}: a UID is required\n${usage}`);
    return 2;
  }
  try {
    if (command === 'end-sessions') {
      const user = await endSessionsOfUid(ctx, { uid, operator });
      io.out(`sessions ended by ${operator}; ${accessLine(user)}`);
      return 0;
    }
    if (command === 'block') {
      const reason = flags.get('reason')?.trim();
      if (!reason) {
        io.err(`block: --reason "<why>" is required\n${usage}`);
        return 2;
      }
      const user = await blockUid(ctx, { uid, reason, operator });
      io.out(`blocked by ${operator}; ${accessLine(user)}`);
      return 0;
    }
    const user = await unblockUid(ctx, { uid, operator });
    io.out(`unblocked by ${operator}; ${accessLine(user)}`);
    return 0;
  } catch (error) {
    if (!isCataloguedError(error)) throw error;
    io.err(`refused: ${error.catalogueCode} — ${error.message}`);
    return 1;
  }
};
