import { ConfigError } from '@gridbot/config';
import { fromMicro } from '@gridbot/ledger';
import {
  costSweeps,
  createTronNodeClient,
  isTronAddress,
  listSweeps,
  queueSweeps,
  type ServiceContext,
} from '@gridbot/services';

type Output = { out: (line: string) => void; err: (line: string) => void };
type Sweep = Awaited<ReturnType<typeof listSweeps>>['open'][number];

export const SWEEPS_USAGE = `usage: npm run wallet -- sweeps list | cost [--address <T…>] | run [--address <T…>] [--operator <name>]`;

/** TRX as a decimal (sun are its 6 decimals, like micro-USDT). */
const trx = (sun: bigint | null | undefined) => (sun === null || sun === undefined ? '-' : fromMicro(sun));

const sweepLine = (s: Sweep) =>
  `#${s.id}  ${s.status.padEnd(15)} ${s.address} → ${s.destinationKind ?? '?'} ${s.destination ?? ''}  ${fromMicro(s.amount)} USDT` +
  `  top-up ${trx(s.topupSun)} TRX (burnt ${trx(s.topupFeeSun)}), transfer burnt ${trx(s.trxBurnedSun)} TRX` +
  `${s.energyUsed !== null ? `, energy ${s.energyUsed}` : ''}  ${s.requestedBy}` +
  `${s.reason ? `  (${s.reason})` : ''}${s.transferTxid ? `  tx ${s.transferTxid}` : ''}`;

/**
 * The node the CLI asks for costs: TRON_NODE_URL, or in demo mode the embedded sandbox node
 * (SANDBOX_TRON_PORT, default SANDBOX_PORT + 1).
 */
const nodeUrlOf = (env: ServiceContext['env']): string | undefined =>
  env.TRON_NODE_URL ??
  (env.DEMO ? `http://127.0.0.1:${env.SANDBOX_TRON_PORT ?? env.SANDBOX_PORT + 1}` : undefined);

/**
 * `npm run wallet -- sweeps …` (docs/wallet.md#sweeps): `list` reads the sweeps table, `cost` asks
 * the node what each eligible address would cost to sweep now, `run` queues sweeps for the
 * sweeper. The CLI holds no key and sends nothing: only the watcher process's sweeper signs.
 */
export const runSweepsCommand = async (
  ctx: ServiceContext,
  input: { command: string | undefined; address: string | undefined; operator: string },
  io: Output,
): Promise<number> => {
  if (input.address !== undefined && !isTronAddress(input.address)) {
    io.err(`--address: not a TRON address: ${input.address}`);
    return 2;
  }
  if (input.command === 'list') {
    const { open, recent, eligible } = await listSweeps(ctx);
    io.out(`open sweeps: ${open.length}`);
    for (const s of open) io.out(sweepLine(s));
    io.out(`recent sweeps: ${recent.length}`);
    for (const s of recent) io.out(sweepLine(s));
    io.out(`addresses to sweep (≥ ${ctx.env.SWEEP_MIN_USDT} USDT credited): ${eligible.length}`);
    for (const e of eligible) io.out(`${e.address}  user ${e.userId}  ${fromMicro(e.sweepable)} USDT`);
    return 0;
  }
  if (input.command === 'cost') {
    const url = nodeUrlOf(ctx.env);
    if (!url) {
      io.err('cost: TRON_NODE_URL is required (the node to ask)');
      return 2;
    }
    const node = createTronNodeClient({
      url,
      apiKey: ctx.env.TRON_API_KEY,
      usdtContract: ctx.env.USDT_CONTRACT,
    });
    let costs: Awaited<ReturnType<typeof costSweeps>>;
    try {
      costs = await costSweeps(ctx, node, { address: input.address });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.err(`cost: ${error.message}`);
      return 1;
    }
    if (costs.length === 0) io.out('nothing to sweep');
    let total = 0n;
    for (const c of costs) {
      if (!c.ok) {
        io.out(`${c.address}  ${fromMicro(c.eligible.sweepable)} USDT  not now: ${c.reason}`);
        continue;
      }
      const p = c.plan;
      const cost = p.topupFeeSun + p.transferBurnSun;
      total += cost;
      io.out(
        `${c.address}  ${fromMicro(p.amount)} USDT → ${p.destinationKind} ${p.destination}  energy ${p.energy}` +
          `  top-up ${trx(p.topupSun)} TRX (its fee ${trx(p.topupFeeSun)})  transfer burns ${trx(p.transferBurnSun)} TRX` +
          `  cost ${trx(cost)} TRX`,
      );
    }
    if (costs.length > 0)
      io.out(
        `total cost ${trx(total)} TRX at ${costs.find((c) => c.ok)?.plan.fees.energySun ?? '?'} sun per energy`,
      );
    return 0;
  }
  if (input.command === 'run') {
    const queued = await queueSweeps(ctx, { requestedBy: input.operator, address: input.address });
    if (queued.length === 0) {
      io.out(
        input.address ? `${input.address}: nothing to sweep (or a sweep of it is open)` : 'nothing to sweep',
      );
      return 0;
    }
    for (const s of queued)
      io.out(`#${s.id} queued: ${s.address} ${fromMicro(s.amount)} USDT (the sweeper carries it out)`);
    return 0;
  }
  io.err(SWEEPS_USAGE);
  return 2;
};
