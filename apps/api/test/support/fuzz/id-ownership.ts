import type { PrismaClient, User } from '@gridbot/db';
import type { FuzzRequest } from './fuzz-request';

/**
 * Request fields that name something of the caller's. An answer 2xx to a request naming someone
 * else's is a leak (docs/security.md#hostile-input). `uid` and `to_user` are not here: looking up
 * and paying another user by UID is what those calls are for.
 */
const OWNED_ID_FIELDS = {
  /** A coin bot: the caller's own. */
  coin_user_id: 'own-coin-bot',
  /** "the caller's UID; any other UID is refused with 403". */
  user_id: 'self',
  /** A partner: the caller or someone in the caller's downline. */
  required_id: 'self-or-downline',
} as const;

type Rule = (typeof OWNED_ID_FIELDS)[keyof typeof OWNED_ID_FIELDS];

/** What `z.coerce.number()` would read, when it reads an id at all. */
const idOf = (value: unknown) => {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

const inDownline = async (prisma: PrismaClient, caller: User, uid: number) => {
  let current = await prisma.user.findUnique({ where: { uid }, select: { id: true, sponsorId: true } });
  for (let depth = 0; current && depth < 50; depth += 1) {
    if (current.id === caller.id) return true;
    if (current.sponsorId === null) return false;
    current = await prisma.user.findUnique({
      where: { id: current.sponsorId },
      select: { id: true, sponsorId: true },
    });
  }
  return false;
};

const isForeign = async (prisma: PrismaClient, caller: User, rule: Rule, id: number) => {
  if (rule === 'own-coin-bot') {
    const bot = await prisma.coinBot.findUnique({ where: { id }, select: { userId: true } });
    return bot !== null && bot.userId !== caller.id;
  }
  if (id === caller.uid) return false;
  const exists = (await prisma.user.count({ where: { uid: id } })) > 0;
  if (!exists) return false;
  return rule === 'self' || !(await inDownline(prisma, caller, id));
};

/** The request's fields that name another user's coin bot or a UID outside the caller's reach. */
export const foreignIdFields = async (prisma: PrismaClient, caller: User, request: FuzzRequest) => {
  const body =
    request.body.kind === 'json' && typeof request.body.value === 'object' ? request.body.value : null;
  const parts = [request.params, request.query, (body ?? {}) as Record<string, unknown>];
  const found: string[] = [];
  for (const part of parts) {
    for (const [key, rule] of Object.entries(OWNED_ID_FIELDS)) {
      if (!Object.hasOwn(part, key)) continue;
      const id = idOf(part[key]);
      if (id !== undefined && (await isForeign(prisma, caller, rule, id))) found.push(`${key}=${id}`);
    }
  }
  return found;
};
