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
  /** What it cost (TransactionInfo.receipt): energy used in all, TRX burnt for energy and bandwidth. */
  receipt?: {
    result?: string;
    energy_usage?: number;
    energy_usage_total?: number;
    energy_fee?: number;
    net_usage?: number;
    net_fee?: number;
  };
  /** TRX burnt in all, sun (absent: none). */
  fee?: number;
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

/**
 * An account's TRX and resources, from `/wallet/getaccount` and `/wallet/getaccountresource`
 * (java-tron HTTP API: fields at zero are left out of both answers, an unknown account is `{}`).
 * Staked energy left = energyLimit − energyUsed; bandwidth left = netLimit − netUsed (staked) and
 * freeNetLimit − freeNetUsed (the daily free allowance).
 */
export type NodeAccount = {
  /** false: never activated (no TRX ever sent to it). */
  exists: boolean;
  balanceSun: bigint;
  energyLimit: number;
  energyUsed: number;
  netLimit: number;
  netUsed: number;
  freeNetLimit: number;
  freeNetUsed: number;
};

/** The chain's prices from `/wallet/getchainparameters` (sun). */
export type ChainFees = {
  /** getEnergyFee: sun per energy burnt. */
  energySun: bigint;
  /** getTransactionFee: sun per byte of bandwidth burnt. */
  bandwidthSun: bigint;
  /** getCreateAccountFee (bandwidth of an activation) and getCreateNewAccountFeeInSystemContract. */
  createAccountSun: bigint;
  createNewAccountSun: bigint;
  /** getFreeNetLimit: the free bandwidth an account gets a day once activated (bytes). */
  freeNetLimit: number;
};

/** The energy a call needs, or why the node could not estimate it (it would revert). */
export type EnergyEstimate = { ok: true; energy: number } | { ok: false; reason: string };

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
    /** The most TRX (sun) the call may spend on energy (networkFees: estimate × price + margin). */
    feeLimitSun: bigint;
  }): Promise<SignedTransaction>;
  broadcast(signed: SignedTransaction): Promise<BroadcastOutcome>;
  /** When the node lets requests out again after refusing them for the budget (0: now). */
  resumeAt(): number;
  /** TRX, energy and bandwidth of an account (two calls: getaccount, getaccountresource). */
  account(address: string): Promise<NodeAccount>;
  chainFees(): Promise<ChainFees>;
  /** The USDT contract's balanceOf(address), micro-USDT (a constant call). */
  usdtBalance(address: string): Promise<bigint>;
  /** The energy of `transfer(to, units)` of USDT sent by `from` (estimateenergy). */
  estimateUsdtTransfer(input: { from: string; to: string; units: bigint }): Promise<EnergyEstimate>;
  /** A TRX transfer built and signed locally (TransferContract), like signUsdtTransfer. */
  signTrxTransfer(input: {
    privateKey: string;
    to: string;
    sun: bigint;
    ref: NodeBlock;
    head: NodeBlock;
    distinctMs: number;
  }): Promise<SignedTransaction>;
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
    signUsdtTransfer: async ({ privateKey, to, units, ref, head, distinctMs, feeLimitSun }) => {
      const from = TronWeb.address.fromPrivateKey(privateKey);
      if (!from) throw new TronNodeError('the hot wallet key is not a private key');
      const built = await tronWeb.transactionBuilder.triggerSmartContract(
        options.usdtContract,
        'transfer(address,uint256)',
        {
          feeLimit: Number(feeLimitSun),
          txLocal: true,
          blockHeader: blockHeaderOf(ref, head, distinctMs),
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
    ...resourceCalls(tronWeb, options.usdtContract),
  };
};

/** TaPoS fields of a transaction built locally: reference block, expiration, timestamp. */
const blockHeaderOf = (ref: BlockRef, head: NodeBlock, distinctMs: number) => ({
  ref_block_bytes: ref.number.toString(16).slice(-4).padStart(4, '0'),
  ref_block_hash: ref.blockID.slice(16, 32),
  expiration: head.timestamp + TRANSACTION_LIFETIME_MS,
  timestamp: head.timestamp + distinctMs,
});

type AccountJson = { balance?: number };
type AccountResourceJson = {
  EnergyLimit?: number;
  EnergyUsed?: number;
  NetLimit?: number;
  NetUsed?: number;
  freeNetLimit?: number;
  freeNetUsed?: number;
};
type ConstantJson = {
  result?: { result?: boolean; code?: string; message?: string };
  constant_result?: string[];
  energy_used?: number;
  energy_required?: number;
};

const NO_ESTIMATE = /does not support estimate energy/i;

/**
 * The hot wallet's and the sweeps' calls (java-tron HTTP API, developers.tron.network "HTTP API"):
 * `getaccount` (balance), `getaccountresource` (EnergyLimit/EnergyUsed, NetLimit/NetUsed,
 * freeNetLimit/freeNetUsed), `getchainparameters` (getEnergyFee, getTransactionFee, …),
 * `triggerconstantcontract` (balanceOf), and `estimateenergy` (energy_required) — which a node
 * answers only with vm.estimateEnergy on; without it, the constant call's energy_used stands in.
 */
const resourceCalls = (tronWeb: TronWeb, usdtContract: string) => {
  const post = <T>(path: string, payload: object) =>
    tronWeb.fullNode.request(path, payload, 'post') as Promise<T>;
  const transferCall = (from: string, to: string, units: bigint) => ({
    owner_address: from,
    contract_address: usdtContract,
    function_selector: 'transfer(address,uint256)',
    parameter: addressWord(to) + units.toString(16).padStart(64, '0'),
    visible: true,
  });
  return {
    account: async (address: string): Promise<NodeAccount> => {
      const [account, resource] = await Promise.all([
        post<AccountJson>('wallet/getaccount', { address, visible: true }),
        post<AccountResourceJson>('wallet/getaccountresource', { address, visible: true }),
      ]);
      return {
        exists: Object.keys(account).length > 0,
        balanceSun: BigInt(account.balance ?? 0),
        energyLimit: resource.EnergyLimit ?? 0,
        energyUsed: resource.EnergyUsed ?? 0,
        netLimit: resource.NetLimit ?? 0,
        netUsed: resource.NetUsed ?? 0,
        freeNetLimit: resource.freeNetLimit ?? 0,
        freeNetUsed: resource.freeNetUsed ?? 0,
      };
    },
    chainFees: async (): Promise<ChainFees> => {
      // No parameters: a GET (tronweb would POST an empty body without a JSON content type).
      const answer = (await tronWeb.fullNode.request('wallet/getchainparameters', {}, 'get')) as {
        chainParameter?: Array<{ key: string; value?: number }>;
      };
      const value = (key: string) => {
        const found = answer.chainParameter?.find((p) => p.key === key);
        if (!found) throw new TronNodeError(`the node's chain parameters have no ${key}`);
        return BigInt(found.value ?? 0);
      };
      return {
        energySun: value('getEnergyFee'),
        bandwidthSun: value('getTransactionFee'),
        createAccountSun: value('getCreateAccountFee'),
        createNewAccountSun: value('getCreateNewAccountFeeInSystemContract'),
        freeNetLimit: Number(value('getFreeNetLimit')),
      };
    },
    usdtBalance: async (address: string): Promise<bigint> => {
      const answer = await post<ConstantJson>('wallet/triggerconstantcontract', {
        owner_address: address,
        contract_address: usdtContract,
        function_selector: 'balanceOf(address)',
        parameter: addressWord(address),
        visible: true,
      });
      const word = answer.constant_result?.[0];
      if (answer.result?.result !== true || !word) {
        throw new TronNodeError(`USDT balance of ${address}: ${JSON.stringify(answer).slice(0, 200)}`);
      }
      return BigInt(`0x${word.slice(0, 64) || '0'}`);
    },
    estimateUsdtTransfer: async ({ from, to, units }: { from: string; to: string; units: bigint }) => {
      const call = transferCall(from, to, units);
      const estimated = await post<ConstantJson>('wallet/estimateenergy', call);
      if (estimated.result?.result === true && estimated.energy_required !== undefined) {
        return { ok: true, energy: estimated.energy_required } as EnergyEstimate;
      }
      const reason = hexText(estimated.result?.message);
      if (!NO_ESTIMATE.test(reason)) return { ok: false, reason: reason || 'no estimate' } as EnergyEstimate;
      const constant = await post<ConstantJson>('wallet/triggerconstantcontract', call);
      if (constant.result?.result !== true) {
        return { ok: false, reason: hexText(constant.result?.message) || 'reverted' } as EnergyEstimate;
      }
      return { ok: true, energy: constant.energy_used ?? 0 } as EnergyEstimate;
    },
    signTrxTransfer: async (input: {
      privateKey: string;
      to: string;
      sun: bigint;
      ref: NodeBlock;
      head: NodeBlock;
      distinctMs: number;
    }): Promise<SignedTransaction> => {
      const from = TronWeb.address.fromPrivateKey(input.privateKey);
      if (!from) throw new TronNodeError('not a private key');
      const built = await tronWeb.transactionBuilder.sendTrx(input.to, Number(input.sun), from, {
        blockHeader: blockHeaderOf(input.ref, input.head, input.distinctMs),
      });
      return (await tronWeb.trx.sign(built, input.privateKey)) as unknown as SignedTransaction;
    },
  };
};

/** An address as a 32-byte ABI word (its 20 bytes after the 0x41 prefix, left-padded). */
const addressWord = (address: string) =>
  (TronWeb.address.toHex(address) as string).slice(2).toLowerCase().padStart(64, '0');
