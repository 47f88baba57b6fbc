import { ConfigError } from '@gridbot/config';
import { toMicro } from '@gridbot/ledger';
import type { ChainContext } from '../chain/scan-deposits';
import type { TronNodeClient } from '../chain/tron-node-client';
import { demoHotWalletKey, tronAddressOfPrivateKey } from '../tron-keys';
import { planSweep, type SweepPlan, withTopupCost } from './plan-sweep';
import { listSweepable, type SweepableAddress } from './queue-sweeps';

/** Open sweeps (oldest first), then the latest finished ones, and the addresses waiting to be swept. */
export const listSweeps = async (
  ctx: Pick<ChainContext, 'prisma' | 'env'>,
  input: { recent?: number } = {},
) => {
  const [open, recent, eligible] = await Promise.all([
    ctx.prisma.sweep.findMany({ where: { openFor: { not: null } }, orderBy: { id: 'asc' } }),
    ctx.prisma.sweep.findMany({
      where: { openFor: null },
      orderBy: { id: 'desc' },
      take: input.recent ?? 20,
    }),
    listSweepable(ctx.prisma, { minimum: toMicro(ctx.env.SWEEP_MIN_USDT) }),
  ]);
  return { open, recent, eligible: eligible.filter((e) => !e.open) };
};

/**
 * The hot wallet's address for a process without its key (the CLI): the one the watcher last
 * read (hot_wallet_status), or the demo's in demo mode. Throws when neither is known.
 */
export const knownHotWalletAddress = async (ctx: Pick<ChainContext, 'prisma' | 'env'>): Promise<string> => {
  const last = await ctx.prisma.hotWalletStatus.findFirst({
    orderBy: { readAt: 'desc' },
    select: { address: true },
  });
  if (last) return last.address;
  if (ctx.env.DEMO) return tronAddressOfPrivateKey(demoHotWalletKey());
  throw new ConfigError('the hot wallet is not known yet: start the watcher once (it records its address)');
};

export type SweepCost =
  | { address: string; eligible: SweepableAddress; ok: true; plan: SweepPlan }
  | { address: string; eligible: SweepableAddress; ok: false; reason: string };

/**
 * What sweeping each eligible address (or `address` only) would cost now, asked of the node and
 * sending nothing: the destination, the transfer's energy (more to a destination that holds no
 * USDT), the TRX top-up it needs, what the top-up burns (activation, bandwidth) and what the
 * transfer burns (`npm run wallet -- sweeps cost`).
 */
export const costSweeps = async (
  ctx: ChainContext,
  node: TronNodeClient,
  input: { address?: string | undefined } = {},
): Promise<SweepCost[]> => {
  const hot = { address: await knownHotWalletAddress(ctx) };
  const eligible = await listSweepable(ctx.prisma, {
    minimum: toMicro(ctx.env.SWEEP_MIN_USDT),
    address: input.address,
  });
  const costs: SweepCost[] = [];
  for (const e of eligible) {
    const outcome = await planSweep(ctx, node, hot, { address: e.address });
    if (!outcome.ok) {
      costs.push({ address: e.address, eligible: e, ok: false, reason: outcome.reason });
      continue;
    }
    const { plan } = await withTopupCost(node, hot, outcome.plan);
    costs.push({ address: e.address, eligible: e, ok: true, plan });
  }
  return costs;
};
