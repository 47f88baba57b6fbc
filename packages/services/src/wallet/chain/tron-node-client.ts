import { TronWeb } from 'tronweb';

/** A block's identity as the watcher needs it. */
export type NodeBlock = { number: number; timestamp: number; blockID: string };

/** One event log of a transaction info: contract address and topics as bare hex (20 / 32 bytes). */
export type NodeLog = { address?: string; topics?: string[]; data?: string };

/** java-tron's TransactionInfo, the fields the watcher reads. */
export type NodeTransactionInfo = {
  id: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  /** FAILED when the transaction failed; absent on success. */
  result?: string;
  receipt?: { result?: string };
  log?: NodeLog[];
};

/** A signed transaction as tronweb builds it and the node's broadcast takes it. */
export type SignedTransaction = {
  txID: string;
  raw_data: { expiration: number; [key: string]: unknown };
  raw_data_hex: string;
  signature: string[];
  [key: string]: unknown;
};

export type BroadcastOutcome = { accepted: true } | { accepted: false; code: string; message: string };

/** How long a withdrawal transaction stays valid after the head block it was built at (tronweb's default). */
export const TRANSACTION_LIFETIME_MS = 60_000;
/** The most TRX (in sun) a USDT transfer may burn for energy. */
const FEE_LIMIT_SUN = 50_000_000;

/**
 * The full-node / TronGrid HTTP API through tronweb: blocks (head and solidified), the transaction
 * infos of a block (receipts and event logs in one call), a transaction's info, building and
 * signing a USDT transfer locally (no node can substitute it), and broadcasting it.
 */
export type TronNodeClient = {
  headBlock(): Promise<NodeBlock>;
  solidBlock(): Promise<NodeBlock>;
  blockTransactionInfos(number: number, solid: boolean): Promise<NodeTransactionInfo[]>;
  /** The transaction's info if it is in a block (solid: a solidified one), else undefined. */
  transactionInfo(txid: string, solid: boolean): Promise<NodeTransactionInfo | undefined>;
  signUsdtTransfer(input: {
    privateKey: string;
    to: string;
    units: bigint;
    /** Reference block (TaPoS): a solidified one, which no fork can take away. */
    ref: NodeBlock;
    /** The head block: the transaction's timestamp, and its expiration counts from it. */
    head: NodeBlock;
    /**
     * Added to the timestamp (ms, < 1000): two equal transfers signed at the same block would
     * otherwise be the same transaction, and the node would take only one.
     */
    distinctMs: number;
  }): Promise<SignedTransaction>;
  broadcast(signed: SignedTransaction): Promise<BroadcastOutcome>;
};

export class TronNodeError extends Error {
  override name = 'TronNodeError';
}

type BlockJson = { blockID?: string; block_header?: { raw_data?: { number?: number; timestamp?: number } } };

const blockOf = (json: BlockJson, what: string): NodeBlock => {
  const raw = json.block_header?.raw_data;
  if (!json.blockID || !raw?.timestamp) throw new TronNodeError(`the node answered no ${what}`);
  // java-tron leaves out fields at their default: the genesis block has no number.
  return { number: raw.number ?? 0, timestamp: raw.timestamp, blockID: json.blockID };
};

const hexText = (hex: unknown): string => {
  if (typeof hex !== 'string') return '';
  return /^[0-9a-fA-F]*$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : hex;
};

export const createTronNodeClient = (options: {
  url: string;
  apiKey?: string | undefined;
  usdtContract: string;
}): TronNodeClient => {
  const tronWeb = new TronWeb({
    fullHost: options.url,
    ...(options.apiKey ? { headers: { 'TRON-PRO-API-KEY': options.apiKey } } : {}),
  });
  const request = <T>(path: string, payload: object, solid: boolean): Promise<T> =>
    (solid ? tronWeb.solidityNode : tronWeb.fullNode).request(path, payload, 'post') as Promise<T>;

  return {
    headBlock: async () => blockOf((await tronWeb.trx.getCurrentBlock()) as BlockJson, 'head block'),
    solidBlock: async () =>
      blockOf((await tronWeb.trx.getConfirmedCurrentBlock()) as BlockJson, 'solidified block'),
    blockTransactionInfos: async (number, solid) => {
      const path = `${solid ? 'walletsolidity' : 'wallet'}/gettransactioninfobyblocknum`;
      const answer = await request<unknown>(path, { num: number }, solid);
      if (!Array.isArray(answer)) {
        throw new TronNodeError(
          `transaction infos of block ${number}: ${JSON.stringify(answer).slice(0, 200)}`,
        );
      }
      return answer as NodeTransactionInfo[];
    },
    transactionInfo: async (txid, solid) => {
      const path = `${solid ? 'walletsolidity' : 'wallet'}/gettransactioninfobyid`;
      const info = await request<NodeTransactionInfo | Record<string, never>>(path, { value: txid }, solid);
      return 'id' in info && info.id ? (info as NodeTransactionInfo) : undefined;
    },
    signUsdtTransfer: async ({ privateKey, to, units, ref, head, distinctMs }) => {
      const from = TronWeb.address.fromPrivateKey(privateKey);
      if (!from) throw new TronNodeError('the hot wallet key is not a private key');
      const built = await tronWeb.transactionBuilder.triggerSmartContract(
        options.usdtContract,
        'transfer(address,uint256)',
        {
          feeLimit: FEE_LIMIT_SUN,
          txLocal: true,
          blockHeader: {
            ref_block_bytes: ref.number.toString(16).slice(-4).padStart(4, '0'),
            ref_block_hash: ref.blockID.slice(16, 32),
            expiration: head.timestamp + TRANSACTION_LIFETIME_MS,
            timestamp: head.timestamp + distinctMs,
          },
        },
        [
          { type: 'address', value: to },
          { type: 'uint256', value: units.toString() },
        ],
        from,
      );
      return (await tronWeb.trx.sign(built.transaction, privateKey)) as unknown as SignedTransaction;
    },
    broadcast: async (signed) => {
      const answer = (await tronWeb.trx.sendRawTransaction(signed as never)) as {
        result?: boolean;
        code?: string;
        message?: string;
      };
      if (answer.result === true) return { accepted: true };
      return { accepted: false, code: answer.code ?? 'UNKNOWN', message: hexText(answer.message) };
    },
  };
};
