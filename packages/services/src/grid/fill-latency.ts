import type { ServiceContext } from '../context/service-context';

/**
 * A coin bot's reconcile converged at `at`: its next orders are placed. Stamps the fills still
 * waiting for that and logs each one's latency from the exchange's trade time to recorded and to
 * the next orders placed (docs/grid.md#fill-latency). Money is not touched: two timestamps only.
 */
export const markFillsConverged = async (
  ctx: ServiceContext,
  input: { coinBotId: number; at: Date },
): Promise<void> => {
  const stamped = await ctx.prisma.$queryRaw<
    { exchange_trade_id: string; at: Date; recorded_at: Date | null }[]
  >`
    UPDATE fills SET converged_at = ${input.at}::timestamptz
    WHERE coin_bot_id = ${input.coinBotId} AND converged_at IS NULL
    RETURNING exchange_trade_id, at, recorded_at`;
  for (const fill of stamped) {
    if (!fill.recorded_at) continue;
    ctx.log.info(
      {
        coinBotId: input.coinBotId,
        tradeId: fill.exchange_trade_id,
        recordedMs: fill.recorded_at.getTime() - fill.at.getTime(),
        placedMs: input.at.getTime() - fill.at.getTime(),
      },
      'fill latency',
    );
  }
};
