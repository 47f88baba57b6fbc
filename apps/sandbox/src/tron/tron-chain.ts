import { utils } from 'tronweb';
import { hexMessage, sha256Hex } from './tron-codec';
import { type ExecutedTx, TronState } from './tron-state';
import { normalizeTransaction, signerOf, type TronTransaction } from './tron-transaction';

/** A block of the sandbox chain. `undo` rolls its transactions back (a fork). */
export type ChainBlock = {
  number: number;
  timestamp: number;
  parentHash: string;
  blockID: string;
  txTrieRoot: string;
  txs: ExecutedTx[];
  undo: Array<() => void>;
  witnessSignature?: string;
};

/** The node's answer to a broadcast, as java-tron writes it (message: hex of its text). */
export type BroadcastAnswer =
  | { result: true; txid: string }
  | { code: BroadcastErrorCode; txid?: string; message: string };

export type BroadcastErrorCode =
  | 'SIGERROR'
  | 'TRANSACTION_EXPIRATION_ERROR'
  | 'DUP_TRANSACTION_ERROR'
  | 'TAPOS_ERROR'
  | 'CONTRACT_VALIDATE_ERROR'
  | 'BANDWITH_ERROR'
  | 'OTHER_ERROR';

/** What a restartable chain writes down: each block's time and transactions, each rewind, each adjustment. */
export type ChainJournal = {
  block(entry: { n: number; t: number; txs: TronTransaction[] }): void;
  rewind(entry: { to: number; generation: number }): void;
  /** An account set by the control API (sandbox-tron.ts `adjust`). */
  adjust?(entry: {
    address: string;
    trx?: string;
    usdt?: string;
    energyLimit?: number;
    netLimit?: number;
  }): void;
};

export type TronChainOptions = {
  /** Chain time between blocks (TRON: 3 s); block timestamps never run behind the clock. */
  blockTimeMs?: number;
  /** Blocks between the head and the solidified block (TRON: 19, two thirds of 27 witnesses). */
  solidityLag?: number;
  now?: () => number;
  /** Makes block ids of this chain its own (a fresh chain gets a random one). */
  seed: string;
  genesisTime: number;
};

const MAX_EXPIRATION_MS = 24 * 60 * 60 * 1000;
const MAX_TXS_PER_BLOCK = 10_000;

/**
 * The sandbox's TRON chain: blocks produced on demand (the server's timer or the control API),
 * a pool of accepted transactions packed into the next block, a solidified height lagging the head,
 * and forks that replace the newest unsolidified blocks. Checks at broadcast are java-tron's:
 * signature of the owner, expiration within (head time, head time + 24 h], no duplicate, TaPoS
 * reference to a block of this chain, then the owner's bandwidth and the contract's own validation.
 */
export class TronChain {
  readonly state = new TronState();
  readonly blocks: ChainBlock[] = [];
  private readonly txIndex = new Map<string, { block: number; index: number }>();
  private pool: TronTransaction[] = [];
  private readonly poolIds = new Set<string>();
  /** When (wall clock, ms) each transaction this node accepted arrived: tests order events by it. */
  private readonly arrivals = new Map<string, number>();
  private generation = 0;
  readonly blockTimeMs: number;
  readonly solidityLag: number;
  private readonly now: () => number;
  journal: ChainJournal | undefined;

  constructor(readonly options: TronChainOptions) {
    this.blockTimeMs = options.blockTimeMs ?? 3000;
    this.solidityLag = options.solidityLag ?? 19;
    this.now = options.now ?? Date.now;
    this.blocks.push(this.makeBlock(0, options.genesisTime, '0'.repeat(64), [], []));
  }

  get head(): ChainBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  get solidNumber(): number {
    return Math.max(0, this.head.number - this.solidityLag);
  }

  get pendingCount(): number {
    return this.pool.length;
  }

  block(number: number, solid = false): ChainBlock | undefined {
    if (!Number.isInteger(number) || number < 0) return undefined;
    if (solid && number > this.solidNumber) return undefined;
    return this.blocks[number];
  }

  blockById(id: string): ChainBlock | undefined {
    const number = Number.parseInt(id.slice(0, 16), 16);
    const block = this.blocks[number];
    return block?.blockID === id.toLowerCase() ? block : undefined;
  }

  /** The transaction's block and receipt, if it is in the chain (solid: in a solidified block). */
  transaction(txid: string, solid = false): { block: ChainBlock; executed: ExecutedTx } | undefined {
    const at = this.txIndex.get(txid.toLowerCase());
    if (!at || (solid && at.block > this.solidNumber)) return undefined;
    const block = this.blocks[at.block]!;
    return { block, executed: block.txs[at.index]! };
  }

  /** The reference-block fields a transaction built now takes (tronweb's getCurrentRefBlockParams). */
  refBlock(block = this.head) {
    return {
      ref_block_bytes: block.number.toString(16).slice(-4).padStart(4, '0'),
      ref_block_hash: block.blockID.slice(16, 32),
      expiration: block.timestamp + 60_000,
      timestamp: block.timestamp,
    };
  }

  broadcast(input: TronTransaction): BroadcastAnswer {
    let tx: TronTransaction;
    try {
      tx = normalizeTransaction(input);
    } catch (error) {
      return fail('OTHER_ERROR', `Invalid transaction: ${(error as Error).message}`);
    }
    const txid = tx.txID;
    if (!tx.signature?.length)
      return fail('SIGERROR', 'Validate signature error: miss sig or contract', txid);
    const headTime = this.head.timestamp;
    if (tx.raw_data.expiration <= headTime || tx.raw_data.expiration > headTime + MAX_EXPIRATION_MS) {
      return fail(
        'TRANSACTION_EXPIRATION_ERROR',
        `Transaction expiration, transaction expiration time is ${tx.raw_data.expiration}, but headBlockTime is ${headTime}`,
        txid,
      );
    }
    if (this.poolIds.has(txid) || this.txIndex.has(txid))
      return fail('DUP_TRANSACTION_ERROR', 'dup transaction', txid);
    if (!this.taposHolds(tx)) {
      return fail(
        'TAPOS_ERROR',
        `Tapos check error: ref block ${tx.raw_data.ref_block_bytes} not found`,
        txid,
      );
    }
    const owner = tx.raw_data.contract[0]?.parameter.value.owner_address;
    const signer = signerOf(tx);
    if (
      !signer ||
      typeof owner !== 'string' ||
      utils.address.toHex(signer).toLowerCase() !== owner.toLowerCase()
    ) {
      return fail(
        'SIGERROR',
        `Validate signature error: ${txid} is signed by ${signer ?? 'nobody'} but it is not contained of permission.`,
        txid,
      );
    }
    const invalid = this.state.validate(tx, headTime);
    if (invalid?.code === 'BANDWITH_ERROR') return fail(invalid.code, invalid.message, txid);
    if (invalid) return fail(invalid.code, `Contract validate error : ${invalid.message}`, txid);
    this.pool.push(tx);
    this.poolIds.add(txid);
    this.arrivals.set(txid, Date.now());
    return { result: true, txid };
  }

  /** When a broadcast transaction reached this node (wall clock, ms), if it did since the start. */
  arrivedAt(txid: string): number | undefined {
    return this.arrivals.get(txid);
  }

  /** Every transaction accepted by broadcast since the start, with its arrival (wall clock, ms). */
  get broadcasts(): Array<{ txid: string; at: number }> {
    return [...this.arrivals].map(([txid, at]) => ({ txid, at }));
  }

  /** Packs the pool into a new block (expired or no longer referable transactions are dropped). */
  produceBlock(): ChainBlock {
    const timestamp = Math.max(this.head.timestamp + this.blockTimeMs, this.now());
    const candidates = this.pool.splice(0, MAX_TXS_PER_BLOCK);
    for (const tx of candidates) this.poolIds.delete(tx.txID);
    const packed = candidates.filter((tx) => tx.raw_data.expiration > timestamp && this.taposHolds(tx));
    return this.applyBlock(timestamp, packed);
  }

  /** Replays a journaled block: the same transactions at the same time. */
  applyBlock(timestamp: number, txs: TronTransaction[]): ChainBlock {
    const number = this.head.number + 1;
    const executed: ExecutedTx[] = [];
    const undo: Array<() => void> = [];
    for (const tx of txs) {
      const result = this.state.execute(tx, timestamp);
      if (!result) continue;
      executed.push(result.executed);
      undo.push(...result.undo);
    }
    const block = this.makeBlock(number, timestamp, this.head.blockID, executed, undo);
    this.blocks.push(block);
    executed.forEach((e, index) => {
      this.txIndex.set(e.tx.txID, { block: number, index });
    });
    this.journal?.block({ n: number, t: timestamp, txs: executed.map((e) => e.tx) });
    return block;
  }

  /**
   * Switches to a heavier fork: the newest `depth` blocks (never a solidified one) are replaced by
   * `depth + 1` blocks of another branch, which had none of this node's transactions. The forked
   * transactions are gone unless `requeue`, which puts them back in this node's pool: the next
   * block packs those still valid (at a new height).
   */
  fork(depth: number, requeue = false): { removed: string[]; head: number } {
    if (!Number.isInteger(depth) || depth < 1 || depth > this.head.number - this.solidNumber) {
      throw new Error(`fork depth must be 1…${this.head.number - this.solidNumber} (unsolidified blocks)`);
    }
    const removed = this.rewind(this.head.number - depth);
    const waiting = this.pool.splice(0);
    for (let i = 0; i <= depth; i += 1) this.produceBlock();
    this.pool = [...(requeue ? removed : []), ...waiting];
    for (const tx of this.pool) this.poolIds.add(tx.txID);
    return { removed: removed.map((tx) => tx.txID), head: this.head.number };
  }

  /** Undoes blocks above `to` (a journaled fork on replay); returns their transactions, oldest first. */
  rewind(to: number, generation = this.generation + 1): TronTransaction[] {
    const removed: TronTransaction[] = [];
    while (this.head.number > to) {
      const block = this.blocks.pop()!;
      for (const undo of [...block.undo].reverse()) undo();
      for (const e of block.txs) this.txIndex.delete(e.tx.txID);
      removed.unshift(...block.txs.map((e) => e.tx));
    }
    this.generation = generation;
    this.journal?.rewind({ to, generation });
    return removed;
  }

  private taposHolds(tx: TronTransaction): boolean {
    const low = Number.parseInt(tx.raw_data.ref_block_bytes, 16);
    if (!Number.isInteger(low)) return false;
    // The newest block whose number ends in these two bytes (java-tron's recent-block slots).
    const number = this.head.number - ((this.head.number - low) & 0xffff);
    if (number < 0) return false;
    const block = this.blocks[number];
    return block?.blockID.slice(16, 32) === tx.raw_data.ref_block_hash.toLowerCase();
  }

  private makeBlock(
    number: number,
    timestamp: number,
    parentHash: string,
    txs: ExecutedTx[],
    undo: Array<() => void>,
  ): ChainBlock {
    const txTrieRoot = txs.length === 0 ? '0'.repeat(64) : sha256Hex(txs.map((e) => e.tx.txID).join(''));
    const hash = sha256Hex(
      `${this.options.seed}:${this.generation}:${number}:${parentHash}:${txTrieRoot}:${timestamp}`,
    );
    const blockID = number.toString(16).padStart(16, '0') + hash.slice(16);
    return { number, timestamp, parentHash, blockID, txTrieRoot, txs, undo };
  }
}

const fail = (code: BroadcastErrorCode, text: string, txid?: string): BroadcastAnswer => ({
  code,
  ...(txid ? { txid } : {}),
  message: hexMessage(text),
});
