import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import type { ServiceContext } from '../context/service-context';
import { secretAad } from '../grid/exchange-clients';
import { type ApiKeyView, toApiKeyView } from './api-key-view';

export type SaveExchangeKeysInput = {
  userId: number;
  exchange: 'binance';
  apiKey: string;
  secretKey: string;
};

/**
 * Checks the keys on the exchange first (they must trade spot and must not withdraw: the exchange's
 * API_KEY_* errors otherwise, EXCHANGE_UNAVAILABLE when it does not answer) and only then stores
 * them, the secret sealed (docs/security.md). Nothing is written when the check fails.
 *
 * Replacing keys keeps the account row, so every coin bot follows the new keys; running ones are
 * reconciled at once with them (reason 'keys'), which also re-reads their orders through the new
 * key (docs/grid.md#replacing-api-keys).
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
  });
  const permissions = await client.assertUsableKey();
  const sealed = ctx.secrets.seal(input.secretKey, secretAad(input.userId, input.exchange));
  const now = ctx.clock.now();
  const data = {
    mode,
    apiKey: input.apiKey,
    secretCipher: sealed.cipher,
    secretIv: sealed.iv,
    keyId: sealed.keyId,
    secretTail: input.secretKey.slice(-4),
    canTrade: permissions.spot,
    canWithdraw: permissions.withdrawals,
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
  ctx.log.info({ userId: input.userId, exchange: input.exchange, mode }, 'exchange API keys saved');
  return toApiKeyView(account);
};
