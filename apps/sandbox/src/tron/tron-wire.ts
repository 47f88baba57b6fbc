import { utils } from 'tronweb';
import type { ChainBlock } from './tron-chain';
import { addressOut, base58Of, hexMessage } from './tron-codec';
import { type Account, CHAIN_PARAMETERS, resourcesOf } from './tron-resources';
import type { ExecutedTx } from './tron-state';
import type { TronTransaction } from './tron-transaction';

/**
 * The JSON shapes of java-tron's HTTP API. Its protobuf-to-JSON printer leaves out fields at their
 * default value (a zero, an empty list, the first enum value), so they are left out here too: the
 * genesis block has no `number`, a block without transactions no `transactions`, a successful
 * transaction info no `result`.
 */

const BLOCK_VERSION = 31;

const withoutDefaults = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(
    Object.entries(value).filter(
      ([, v]) => v !== undefined && v !== 0 && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  ) as T;

const visibleTransaction = (tx: TronTransaction, visible: boolean): TronTransaction => {
  if (!visible) return tx;
  const contract = tx.raw_data.contract.map((c) => ({
    ...c,
    parameter: {
      ...c.parameter,
      value: Object.fromEntries(
        Object.entries(c.parameter.value).map(([key, value]) => [
          key,
          key.endsWith('address') && typeof value === 'string' ? base58Of(value) : value,
        ]),
      ),
    },
  }));
  return { ...tx, visible: true, raw_data: { ...tx.raw_data, contract } };
};

export const transactionJson = (executed: ExecutedTx, visible = false) => {
  const { visible: _drop, ...tx } = visibleTransaction(executed.tx, visible);
  return { ret: [{ contractRet: executed.contractRet }], ...tx, visible: visible || undefined };
};

export const blockJson = (
  block: ChainBlock,
  witness: { address: string; key: string },
  options: { detail?: boolean; visible?: boolean } = {},
) => {
  block.witnessSignature ??= utils.crypto.ECKeySign(
    utils.code.hexStr2byteArray(block.blockID),
    utils.code.hexStr2byteArray(witness.key),
  );
  const visible = options.visible ?? false;
  const transactions =
    options.detail === false ? [] : block.txs.map((executed) => transactionJson(executed, visible));
  return withoutDefaults({
    blockID: block.blockID,
    block_header: {
      raw_data: withoutDefaults({
        number: block.number,
        txTrieRoot: block.txTrieRoot,
        witness_address: addressOut(witness.address, visible),
        parentHash: block.parentHash,
        version: BLOCK_VERSION,
        timestamp: block.timestamp,
      }),
      witness_signature: block.witnessSignature,
    },
    transactions,
  });
};

export const transactionInfoJson = (block: ChainBlock, executed: ExecutedTx) => {
  const failed = executed.contractRet !== 'SUCCESS';
  const isCall = executed.contract !== undefined;
  return withoutDefaults({
    id: executed.tx.txID,
    fee: Number(executed.feeSun),
    blockNumber: block.number,
    blockTimeStamp: block.timestamp,
    contractResult: [executed.contractResult],
    contract_address: executed.contract,
    receipt: withoutDefaults({
      energy_usage: executed.energyUsage,
      energy_fee: Number(executed.energyFeeSun),
      energy_usage_total: executed.energyUsageTotal,
      net_usage: executed.netUsage,
      net_fee: Number(executed.netFeeSun),
      result: isCall ? executed.contractRet : undefined,
    }),
    log: executed.logs,
    result: failed ? 'FAILED' : undefined,
    resMessage: executed.resMessage ? hexMessage(executed.resMessage) : undefined,
  });
};

/**
 * `/wallet/getaccount`: the stored account, usage as last charged (java-tron prints the stored
 * values; what has recovered since shows in getaccountresource). An unknown account is `{}`.
 */
export const accountJson = (hex41: string, account: Account | undefined, visible: boolean) =>
  account
    ? withoutDefaults({
        address: addressOut(hex41, visible),
        balance: Number(account.balance),
        create_time: account.createTime,
        net_usage: account.netUsage,
        latest_consume_time: account.netTime,
        free_net_usage: account.freeNetUsage,
        latest_consume_free_time: account.freeNetTime,
        account_resource: withoutDefaults({
          energy_usage: account.energyUsage,
          latest_consume_time_for_energy: account.energyTime,
        }),
      })
    : {};

/**
 * `/wallet/getaccountresource` (api.AccountResourceMessage): free and staked bandwidth, energy,
 * the network's totals; fields at zero left out, an unknown account `{}`. Staked energy =
 * EnergyLimit − EnergyUsed, bandwidth = NetLimit − NetUsed and freeNetLimit − freeNetUsed.
 */
export const accountResourceJson = (account: Account | undefined, now: number) => {
  if (!account) return {};
  const r = resourcesOf(account, now);
  return withoutDefaults({
    freeNetUsed: r.freeNetUsed,
    freeNetLimit: r.freeNetLimit,
    NetUsed: r.netUsed,
    NetLimit: r.netLimit,
    TotalNetLimit: CHAIN_PARAMETERS.getTotalNetLimit,
    TotalNetWeight: TOTAL_NET_WEIGHT,
    EnergyUsed: r.energyUsed,
    EnergyLimit: r.energyLimit,
    TotalEnergyLimit: CHAIN_PARAMETERS.getTotalEnergyLimit,
    TotalEnergyWeight: TOTAL_ENERGY_WEIGHT,
  });
};

/** The network's staked TRX for bandwidth and energy (mainnet's order of magnitude; reported only). */
const TOTAL_NET_WEIGHT = 26_000_000_000;
const TOTAL_ENERGY_WEIGHT = 19_000_000_000;

/** `/wallet/getchainparameters`: `{ chainParameter: [{ key, value }] }` (a zero value has no `value`). */
export const chainParametersJson = () => ({
  chainParameter: Object.entries(CHAIN_PARAMETERS).map(([key, value]) => withoutDefaults({ key, value })),
});
