/** What the fuzz sent per contract and how it was answered, printed at the end of the run. */
export type ContractStats = {
  sent: number;
  reachedHandler: number;
  ok: number;
  refused: number;
  rateLimited: number;
};

export const createFuzzStats = () => {
  const byContract = new Map<string, ContractStats>();
  let startedAt: number | undefined;
  const of = (id: string) => {
    let stats = byContract.get(id);
    if (!stats) {
      stats = { sent: 0, reachedHandler: 0, ok: 0, refused: 0, rateLimited: 0 };
      byContract.set(id, stats);
    }
    return stats;
  };
  return {
    /** Called by the app's preHandler hook: the request passed auth, rate limit and validation. */
    reached: (id: string) => {
      of(id).reachedHandler += 1;
    },
    answered: (id: string, status: number) => {
      startedAt ??= Date.now();
      const stats = of(id);
      stats.sent += 1;
      if (status < 300) stats.ok += 1;
      else stats.refused += 1;
      if (status === 429) stats.rateLimited += 1;
    },
    report: () => {
      const rows = [...byContract.entries()].filter(([, stats]) => stats.sent > 0);
      const total = rows.reduce(
        (sum, [, s]) => ({
          sent: sum.sent + s.sent,
          reached: sum.reached + s.reachedHandler,
          limited: sum.limited + s.rateLimited,
        }),
        { sent: 0, reached: 0, limited: 0 },
      );
      const pct = (part: number) => `${((100 * part) / Math.max(total.sent, 1)).toFixed(1)} %`;
      const lines = rows.map(
        ([id, s]) =>
          `  ${id.padEnd(36)} sent ${String(s.sent).padStart(4)}  handler ${String(s.reachedHandler).padStart(4)}` +
          `  2xx ${String(s.ok).padStart(4)}  4xx ${String(s.refused).padStart(4)}  429 ${String(s.rateLimited).padStart(3)}`,
      );
      return [
        `hostile-input: ${total.sent} requests in ${((Date.now() - (startedAt ?? Date.now())) / 1000).toFixed(1)} s, ` +
          `${pct(total.reached)} reached a handler, ${pct(total.limited)} answered 429`,
        ...lines,
      ].join('\n');
    },
  };
};
