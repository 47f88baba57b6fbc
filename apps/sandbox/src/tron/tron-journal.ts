import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SandboxTron, type SandboxTronConfig, type SandboxTronOptions } from './sandbox-tron';
import type { TronTransaction } from './tron-transaction';

export const TRON_JOURNAL_FORMAT = 'gridbot-sandbox-tron';
export const TRON_JOURNAL_VERSION = 1;

/** The chain's journal exists but cannot be replayed (damaged, another version, not ours). */
export class SandboxTronStateError extends Error {
  readonly code = 'SANDBOX_TRON_STATE_UNUSABLE';
  readonly operatorMessage = true;

  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `sandbox TRON chain ${file} cannot be used: ${reason}. Move the file away to start a new chain ` +
        '(its blocks and balances are then gone, and a watcher that followed it must start afresh too).',
    );
    this.name = 'SandboxTronStateError';
  }
}

const ZHeader = z.object({
  format: z.literal(TRON_JOURNAL_FORMAT),
  version: z.literal(TRON_JOURNAL_VERSION),
  seed: z.string().min(1),
  genesisTime: z.number().int(),
  genesis: z.array(
    z.object({ address: z.string(), usdt: z.string().optional(), trx: z.string().optional() }),
  ),
});
const ZEntry = z.union([
  z.object({
    b: z.number().int().positive(),
    t: z.number().int(),
    txs: z.array(z.record(z.string(), z.unknown())),
  }),
  z.object({ r: z.number().int().min(0), g: z.number().int().min(0) }),
  z.object({
    a: z.object({
      address: z.string(),
      trx: z.string().optional(),
      usdt: z.string().optional(),
      energyLimit: z.number().int().min(0).optional(),
      netLimit: z.number().int().min(0).optional(),
    }),
  }),
]);

/**
 * The sandbox chain kept across restarts as an append-only journal (JSON lines): a header with the
 * genesis, then one line per block (its time and transactions, an empty block is a few bytes), one
 * per fork and one per account the control API set. Starting replays it — the same blocks, ids
 * and balances — and keeps appending.
 * A line cut short by a crash at the very end is dropped (that block is produced again).
 */
export const openJournaledTron = (
  file: string,
  fresh: () => SandboxTronConfig,
  options: SandboxTronOptions,
): { tron: SandboxTron; close: () => void } => {
  const tron = existsSync(file) ? replay(file, options) : create(file, fresh(), options);
  const fd = openSync(file, 'a');
  const append = (entry: object) => writeSync(fd, `${JSON.stringify(entry)}\n`);
  tron.chain.journal = {
    block: ({ n, t, txs }) => append({ b: n, t, txs }),
    rewind: ({ to, generation }) => append({ r: to, g: generation }),
    adjust: (entry) => append({ a: entry }),
  };
  return {
    tron,
    close: () => {
      tron.chain.journal = undefined;
      fsyncSync(fd);
      closeSync(fd);
    },
  };
};

const create = (file: string, config: SandboxTronConfig, options: SandboxTronOptions): SandboxTron => {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'wx');
  writeSync(
    fd,
    `${JSON.stringify({ format: TRON_JOURNAL_FORMAT, version: TRON_JOURNAL_VERSION, ...config })}\n`,
  );
  fsyncSync(fd);
  closeSync(fd);
  return new SandboxTron(config, options);
};

const replay = (file: string, options: SandboxTronOptions): SandboxTron => {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const parse = (line: string, index: number) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      // Only the last line can be cut short (a crash while appending).
      if (index === lines.length - 1 && index > 0) return undefined;
      throw new SandboxTronStateError(file, `line ${index + 1} is not JSON`);
    }
  };
  const header = ZHeader.safeParse(parse(lines[0] ?? '', 0));
  if (!header.success)
    throw new SandboxTronStateError(file, 'it is not a sandbox TRON journal of this version');
  const { format: _f, version: _v, ...config } = header.data;
  const tron = new SandboxTron(config, options);
  for (let i = 1; i < lines.length; i += 1) {
    const raw = parse(lines[i]!, i);
    if (raw === undefined) break;
    const entry = ZEntry.safeParse(raw);
    if (!entry.success)
      throw new SandboxTronStateError(file, `line ${i + 1} is not a block, a fork or an adjustment`);
    const data = entry.data;
    if ('r' in data) {
      tron.chain.rewind(data.r, data.g);
      continue;
    }
    if ('a' in data) {
      tron.adjust(data.a);
      continue;
    }
    if (data.b !== tron.chain.head.number + 1) {
      throw new SandboxTronStateError(
        file,
        `line ${i + 1}: block ${data.b} does not follow ${tron.chain.head.number}`,
      );
    }
    const block = tron.chain.applyBlock(data.t, data.txs as TronTransaction[]);
    if (block.txs.length !== data.txs.length) {
      throw new SandboxTronStateError(
        file,
        `line ${i + 1}: block ${data.b} does not replay to the same transactions`,
      );
    }
  }
  return tron;
};
