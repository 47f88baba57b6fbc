import { Trx, utils } from 'tronweb';
import { hexAddressOf } from './tron-codec';

/** A transaction as the HTTP API carries it (java-tron's JSON: hex addresses unless `visible`). */
export type TronTransaction = {
  visible?: boolean;
  txID: string;
  raw_data: {
    contract: Array<{
      parameter: { value: Record<string, unknown>; type_url: string };
      type: string;
      Permission_id?: number;
    }>;
    ref_block_bytes: string;
    ref_block_hash: string;
    expiration: number;
    timestamp?: number;
    fee_limit?: number;
    data?: string;
  };
  raw_data_hex: string;
  signature?: string[];
};

/** The one call a transaction makes, read from its first contract (the only one TRON allows). */
export type TronCall =
  | { kind: 'transfer'; owner: string; to: string; amount: bigint }
  | { kind: 'trigger'; owner: string; contract: string; data: string; callValue: bigint }
  | { kind: 'unsupported'; owner: string | undefined; type: string };

type Protobuf = ReturnType<typeof utils.transaction.txJsonToPb>;

/**
 * The transaction with txID and raw_data_hex computed from its raw_data, as the node does: it
 * serialises the JSON it received to protobuf and hashes that, whatever txID the client sent.
 * Throws on JSON that is not a transaction.
 */
export const normalizeTransaction = (input: TronTransaction): TronTransaction => {
  const pb: Protobuf = utils.transaction.txJsonToPb({ ...input, visible: false } as never);
  return {
    visible: false,
    txID: utils.transaction.txPbToTxID(pb).replace(/^0x/, ''),
    raw_data: input.raw_data,
    raw_data_hex: utils.transaction.txPbToRawDataHex(pb).toLowerCase(),
    ...(input.signature ? { signature: input.signature } : {}),
  };
};

/** The base58 address that signed (recovered from the first signature), or undefined. */
export const signerOf = (tx: TronTransaction): string | undefined => {
  try {
    const signer = Trx.ecRecover(tx as never);
    return typeof signer === 'string' ? signer : undefined;
  } catch {
    return undefined;
  }
};

export const callOf = (tx: TronTransaction): TronCall => {
  const contract = tx.raw_data.contract[0];
  const value = contract?.parameter.value ?? {};
  const owner = hexAddressOf(value.owner_address);
  if (contract?.type === 'TransferContract') {
    const to = hexAddressOf(value.to_address);
    if (owner && to) return { kind: 'transfer', owner, to, amount: BigInt(Number(value.amount ?? 0)) };
  }
  if (contract?.type === 'TriggerSmartContract') {
    const target = hexAddressOf(value.contract_address);
    if (owner && target) {
      return {
        kind: 'trigger',
        owner,
        contract: target,
        data: typeof value.data === 'string' ? value.data : '',
        callValue: BigInt(Number(value.call_value ?? 0)),
      };
    }
  }
  return { kind: 'unsupported', owner, type: contract?.type ?? 'none' };
};

/** Builds and signs a transaction locally (the sandbox's own faucet accounts). */
export const signedTransaction = (
  contract: { type: 'TransferContract' | 'TriggerSmartContract'; value: Record<string, unknown> },
  header: { ref_block_bytes: string; ref_block_hash: string; expiration: number; timestamp: number },
  privateKey: string,
  feeLimit?: number,
): TronTransaction => {
  const unsigned = normalizeTransaction({
    txID: '',
    raw_data_hex: '',
    raw_data: {
      contract: [
        {
          parameter: { value: contract.value, type_url: `type.googleapis.com/protocol.${contract.type}` },
          type: contract.type,
        },
      ],
      ...header,
      ...(feeLimit ? { fee_limit: feeLimit } : {}),
    },
  });
  return utils.crypto.signTransaction(privateKey, unsigned as never) as unknown as TronTransaction;
};
