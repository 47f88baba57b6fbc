import type { Exchange } from '@gridbot/contracts';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { passphraseAad, secretAad } from '../grid/exchange-clients';
import { type ApiKeyView, toApiKeyView } from './api-key-view';
import { keyAccessColumns } from './check-exchange-keys';
import { coinBotsWithDeals, leaveCoinOnPreviousAccount } from './leave-previous-account';

export type SaveExchangeKeysInput = {
  userId: number;
  exchange: Exchange;
  apiKey: string;
  secretKey: string;
  /** OKX's passphrase (the contract requires it there and refuses it elsewhere). */
  passphrase?: string;
  /** Keys of another exchange account may replace the saved ones although coins have open deals. */
  confirmAccountSwitch?: boolean;
};

/**
 * The exchange account of the saved keys: stored since keys carry it, else asked with them (keys
 * saved before; null when they no longer answer — then the switch cannot be told and is not asked).
 */
const savedAccountUid = async (
  ctx: ServiceContext,
  account: { id: number; exchangeUid: string | null },
): Promise<string | null> => {
  if (account.exchangeUid !== null) return account.exchangeUid;
  try {
    return await (await ctx.exchanges.forAccount(account.id)).fetchAccountUid();
  } catch {
    return null;
  }
};

/**
 * Checks the keys on the exchange first (they must trade spot and must not withdraw: the exchange's
 * API_KEY_* errors otherwise, EXCHANGE_UNAVAILABLE when it does not answer) and only then stores
 * them, the secret sealed (docs/security.md). Nothing is written when the check fails.
 *
 * Replacing keys keeps the account row, so every coin bot follows the new keys; running ones are
 * reconciled at once with them (reason 'keys'), which also re-reads their orders through the new
 * key (docs/grid.md#replacing-api-keys). Keys of another exchange account (another `uid`) while
 * coins have open deals are refused with API_KEY_OTHER_ACCOUNT (409, nothing changed) unless
 * confirmed; confirmed, those coins' deals are left on the previous account first
 * (leave-previous-account.ts), with the previous keys still in place to cancel their orders.
 */
export const saveExchangeKeys = async (
  ctx: ServiceContext,
  input: SaveExchangeKeysInput,
): Promise<ApiKeyView> => {
  const mode = ctx.env.EXCHANGE_MODE;
  const client = ctx.exchanges.forKeys({
    exchange: input.exchange,
    mode,
    apiKey: input.apiKey,
    secret: input.secretKey,
    password: input.passphrase,
  });
  const permissions = await client.assertUsableKey();
  const uid = await client.fetchAccountUid();
  const saved = await ctx.prisma.exchangeAccount.findUnique({
    where: { userId_exchange: { userId: input.userId, exchange: input.exchange } },
    select: { id: true, exchangeUid: true },
  });
  const previousUid = saved && uid !== null ? await savedAccountUid(ctx, saved) : null;
  const otherAccount = previousUid !== null && uid !== null && previousUid !== uid;
  const withDeals = saved && otherAccount ? await coinBotsWithDeals(ctx, saved.id) : [];
  if (withDeals.length > 0 && input.confirmAccountSwitch !== true)
    throw new AppError('API_KEY_OTHER_ACCOUNT');
  for (const bot of withDeals) {
    const left = await leaveCoinOnPreviousAccount(ctx, bot);
    ctx.log.info({ userId: input.userId, ...left }, 'coin left on the previous exchange account');
  }

  const sealed = ctx.secrets.seal(input.secretKey, secretAad(input.userId, input.exchange));
  const passphrase = input.passphrase
    ? ctx.secrets.seal(input.passphrase, passphraseAad(input.userId, input.exchange))
    : null;
  const now = ctx.clock.now();
  const data = {
    mode,
    apiKey: input.apiKey,
    secretCipher: sealed.cipher,
    secretIv: sealed.iv,
    keyId: sealed.keyId,
    secretTail: input.secretKey.slice(-4),
    // Sealed with the same master key as the secret (one key id for the row).
    passphraseCipher: passphrase?.keyId === sealed.keyId ? passphrase.cipher : null,
    passphraseIv: passphrase?.keyId === sealed.keyId ? passphrase.iv : null,
    ...keyAccessColumns(permissions),
    exchangeUid: uid,
    checkedAt: now,
    checkProblem: null,
    savedAt: now,
  };
  const account = await ctx.prisma.exchangeAccount.upsert({
    where: { userId_exchange: { userId: input.userId, exchange: input.exchange } },
    create: { userId: input.userId, exchange: input.exchange, ...data },
    update: data,
  });
  const running = await ctx.prisma.coinBot.findMany({
    where: { exchangeAccountId: account.id, running: true, deletedAt: null },
    select: { id: true },
  });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    running.map(({ id }) => ({
      payload: { coinBotId: id, reason: 'keys' },
      options: { jobId: reconcileJobId(id) },
    })),
  );
  ctx.log.info(
    { userId: input.userId, exchange: input.exchange, mode, otherAccount, coinsLeft: withDeals.length },
    'exchange API keys saved',
  );
  return toApiKeyView(account);
};
