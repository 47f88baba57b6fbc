import { TronWeb } from 'tronweb';
import { createNodeBackOff, RATE_LIMIT_STATUSES } from './node-back-off';

/** A block's height and id. */
export type BlockRef = { number: number; blockID: string };

/** A block's identity as the watcher needs it. */
export type NodeBlock = BlockRef & { timestamp: number };

/** The head and the solidified block, read once per watcher pass (docs/wallet.md#within-trongrids-budget). */
export type ChainTip = { head: BlockRef; solid: BlockRef };

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
 * The full-node / TronGrid HTTP API through tronweb: the head and solidified heights, block
 * headers, the transaction infos of a block (receipts and event logs in one call), a transaction's
 * info, building and signing a USDT transfer locally (no node can substitute it), and broadcasting
 * it. Every request carries the API key (`TRON-PRO-API-KEY`) when one is set, and none is sent
 * while the node has asked to wait (node-back-off.ts).
 */
export type TronNodeClient = {
  /** Head and solidified height and id in one request (`/wallet/getnodeinfo`). */
  chainTip(): Promise<ChainTip>;
  /** A block's header, without its transactions (`/wallet/getblock`, detail false). */
  blockHeader(number: number): Promise<NodeBlock>;
  /** The head block's header. */
  headBlock(): Promise<NodeBlock>;
  /** The solidified block's header. */
  solidBlock(): Promise<NodeBlock>;
  blockTransactionInfos(number: number, solid: boolean): Promise<NodeTransactionInfo[]>;
  /** The transaction's info if it is in a block (solid: a solidified one), else undefined. */
  transactionInfo(txid: string, solid: boolean): Promise<NodeTransactionInfo | undefined>;
  signUsdtTransfer(input: {
    privateKey: string;
    to: string;
    units: bigint;
    /** Reference block (TaPoS): a solidified one, which no fork can take away. */
    ref: BlockRef;
    /** The head block: the transaction's timestamp, and its expiration counts from it. */
    head: NodeBlock;
    /**
     * Added to the timestamp (ms, < 1000): two equal transfers signed at the same block would
     * otherwise be the same transaction, and the node would take only one.
     */
    distinctMs: number;
  }): Promise<SignedTransaction>;
  broadcast(signed: SignedTransaction): Promise<BroadcastOutcome>;
  /** When the node lets requests out again after refusing them for the budget (0: now). */
  resumeAt(): number;
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

/** getnodeinfo's `block` / `solidityBlock`: "Num:<height>,ID:<block id>". */
const refOf = (text: unknown, what: string): BlockRef => {
  const match = typeof text === 'string' ? /^Num:(\d+),ID:([0-9a-fA-F]{64})$/.exec(text.trim()) : null;
  if (!match) throw new TronNodeError(`the node answered no ${what}: ${JSON.stringify(text)}`);
  return { number: Number(match[1]), blockID: match[2]!.toLowerCase() };
};

type HttpError = { response?: { status?: number; headers?: Record<string, unknown>; data?: unknown } };

/** What tronweb's providers are at run time (axios instances; its types show only `request`). */
type Intercepted = {
  interceptors: {
    request: { use(onSend: <C>(config: C) => C): number };
    response: { use(onAnswer: <R>(response: R) => R, onError: (error: HttpError) => never): number };
  };
};

const hexText = (hex: unknown): string => {
  if (typeof hex !== 'string') return '';
  return /^[0-9a-fA-F]*$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : hex;
};

export const createTronNodeClient = (options: {
  url: string;
  apiKey?: string | undefined;
  usdtContract: string;
  /** The clock the back-off waits by (tests). */
  now?: () => number;
}): TronNodeClient => {
  const tronWeb = new TronWeb({
    fullHost: options.url,
    // TronGrid "API Keys": the key goes in this header of every request.
    ...(options.apiKey ? { headers: { 'TRON-PRO-API-KEY': options.apiKey } } : {}),
  });
  // Every request tronweb makes, whoever asks for it, passes the same back-off.
  const backOff = createNodeBackOff(options.now);
  for (const provider of [tronWeb.fullNode, tronWeb.solidityNode]) {
    const { interceptors } = provider.instance as unknown as Intercepted;
    interceptors.request.use((config) => {
      backOff.beforeRequest();
      return config;
    });
    interceptors.response.use(
      (response) => {
        backOff.answered();
        return response;
      },
      (error) => {
        const status = error.response?.status;
        if (status === undefined || !RATE_LIMIT_STATUSES.has(status)) throw error;
        throw backOff.refused(status, error.response?.headers?.['retry-after'], error.response?.data);
      },
    );
  }
  const request = <T>(path: string, payload: object, solid: boolean): Promise<T> =>
    (solid ? tronWeb.solidityNode : tronWeb.fullNode).request(path, payload, 'post') as Promise<T>;
  // java-tron HTTP API, "getblock": id_or_num empty is the newest block; detail false leaves the
  // transactions out (the header only). Under /walletsolidity/ the newest solidified block.
  const header = async (idOrNum: string | undefined, solid: boolean, what: string) => {
    const payload = idOrNum === undefined ? { detail: false } : { id_or_num: idOrNum, detail: false };
    const path = `${solid ? 'walletsolidity' : 'wallet'}/getblock`;
    return blockOf(await request<BlockJson>(path, payload, solid), what);
  };

  return {
    // java-tron HTTP API, "getnodeinfo": `block` and `solidityBlock` name the head and the
    // solidified block ("Num:<height>,ID:<id>") in one answer, without any block's transactions.
    chainTip: async () => {
      // A GET, as tronweb's getNodeInfo sends it: the call takes no parameters.
      const info = (await tronWeb.fullNode.request('wallet/getnodeinfo', {}, 'get')) as {
        block?: unknown;
        solidityBlock?: unknown;
      };
      return { head: refOf(info.block, 'head block'), solid: refOf(info.solidityBlock, 'solidified block') };
    },
    blockHeader: (number) => header(String(number), false, `block ${number}`),
    headBlock: () => header(undefined, false, 'head block'),
    solidBlock: () => header(undefined, true, 'solidified block'),
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
    resumeAt: () => backOff.resumeAt(),
  };
};
