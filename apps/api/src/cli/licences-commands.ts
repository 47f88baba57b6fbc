import { isCataloguedError } from '@gridbot/contracts';
import type { LicenseLevelRow } from '@gridbot/domain';
import {
  grantLicenseByUid,
  isAppError,
  type LicenseLevelChange,
  listLicenseLevels,
  type ServiceContext,
  setLicenseLevel,
} from '@gridbot/services';
import { parseArgs } from './wallet-commands';

export const LICENCES_CLI_USAGE = `usage: npm run licences -- <command> [--operator <name>]
  list                                      the ladder in rank order
  set <LEVEL> [--price USDT] [--limit USDT] [--coins N] [--generations 0-3] [--days N]
                                            change a level (all five: add a level above the highest)
  grant <uid> <LEVEL>                       give a level for its validity, without payment`;

type Output = { out: (line: string) => void; err: (line: string) => void };

/** `1 coin`, `2 coins`: an English count and its noun. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const describeLevel = (level: LicenseLevelRow) =>
  `${level.code} (rank ${level.rank}): price ${level.yearlyPrice} USDT, limit ${level.balanceLimit} USDT, ` +
  `${count(level.coins, 'coin')}, ${count(level.matchingGenerations, 'generation')}, ${count(level.validDays, 'day')}`;

const FIELDS = [
  ['yearlyPrice', 'price'],
  ['balanceLimit', 'limit'],
  ['coins', 'coins'],
  ['matchingGenerations', 'generations'],
  ['validDays', 'days'],
] as const;

/** The audit line of a change: who, when, and each field before → after. */
const auditLine = (operator: string, before: LicenseLevelRow | null, after: LicenseLevelRow) => {
  const changes = FIELDS.filter(([field]) => !before || String(before[field]) !== String(after[field])).map(
    ([field, name]) => `${name} ${before ? `${before[field]} → ` : ''}${after[field]}`,
  );
  const what = before ? 'changed' : 'added';
  return `${new Date().toISOString()} ${operator} ${what} ${after.code}: ${changes.join(', ') || 'no change'}`;
};

const intFlag = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;

/**
 * The operator's licence ladder commands (docs/licences.md#operator-cli) over the licence services.
 * Returns the exit code: 0 done, 1 refused (the catalogue code and each issue), 2 usage.
 */
export const runLicencesCli = async (
  ctx: ServiceContext,
  argv: readonly string[],
  io: Output,
  defaultOperator: string,
): Promise<number> => {
  const { words, flags } = parseArgs(argv);
  const [command, first, second] = words;
  const operator = `operator:${flags.get('operator') || defaultOperator}`;
  try {
    if (command === 'list') {
      for (const level of await listLicenseLevels(ctx)) io.out(describeLevel(level));
      return 0;
    }
    if (command === 'set' && first) {
      const change: LicenseLevelChange = {
        code: first.trim().toUpperCase(),
        price: flags.get('price'),
        limit: flags.get('limit'),
        coins: intFlag(flags.get('coins')),
        generations: intFlag(flags.get('generations')),
        days: intFlag(flags.get('days')),
      };
      const { before, after } = await setLicenseLevel(ctx, change);
      io.out(auditLine(operator, before, after));
      return 0;
    }
    if (command === 'grant' && first && second && /^\d{1,10}$/.test(first)) {
      const level = second.trim().toUpperCase();
      const granted = await grantLicenseByUid(ctx, { uid: Number(first), level });
      io.out(
        `${new Date().toISOString()} ${operator} granted uid ${first}: ${granted.before} → ${granted.after}`,
      );
      return 0;
    }
    io.err(LICENCES_CLI_USAGE);
    return 2;
  } catch (error) {
    if (!isCataloguedError(error)) throw error;
    const issues = isAppError(error)
      ? (error.issues ?? []).map((i) => `\n  ${i.path}: ${i.message}`).join('')
      : '';
    io.err(`refused: ${error.catalogueCode} — ${error.message}${issues}`);
    return 1;
  }
};
