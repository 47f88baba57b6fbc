import type { EventLog, Trc20Token } from './trc20-token';
import { addressFromWord, SELECTORS } from './tron-codec';
import {
  type Account,
  BYTES_CONTRACT_CALL,
  BYTES_TRX_TRANSFER,
  bandwidthBill,
  CHAIN_PARAMETERS,
  ENERGY_TRANSFER_TO_EMPTY,
  ENERGY_TRANSFER_TO_HOLDER,
  energyLimitOf,
  MAX_FEE_LIMIT_SUN,
  newAccount,
  payBandwidth,
  payEnergy,
} from './tron-resources';
import { callOf, type TronCall, type TronTransaction } from './tron-transaction';

export { MAX_FEE_LIMIT_SUN, SUN_PER_ENERGY } from './tron-resources';

/** What a transaction did once packed into a block (the node's receipt). */
export type ExecutedTx = {
  tx: TronTransaction;
  /** The `ret[0].contractRet` of the transaction; transfers of TRX are SUCCESS. */
  contractRet: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';
  contract?: string;
  /** TRX burnt in all (the transaction info's `fee`): bandwidth, energy, account creation. */
  feeSun: bigint;
  /** Energy taken from the account's stake (receipt `energy_usage`). */
  energyUsage: number;
  /** Energy used in all (receipt `energy_usage_total`) and the TRX burnt for it (`energy_fee`). */
  energyUsageTotal: number;
  energyFeeSun: bigint;
  /** Bandwidth taken from stake or the free allowance (receipt `net_usage`) or burnt (`net_fee`). */
  netUsage: number;
  netFeeSun: bigint;
  logs: EventLog[];
  contractResult: string;
  resMessage?: string;
};

/** Why the node refuses a transaction before accepting it, with java-tron's code. */
export type Refusal = { code: 'BANDWITH_ERROR' | 'CONTRACT_VALIDATE_ERROR'; message: string };

/**
 * The world state of the sandbox chain: TRX accounts with their resources (tron-resources.ts) and
 * TRC20 contracts. `execute` applies one transaction, charging bandwidth and energy as mainnet
 * does, and returns its receipt and how to undo it (a fork rolls blocks back).
 */
export class TronState {
  readonly accounts = new Map<string, Account>();
  readonly tokens = new Map<string, Trc20Token>();

  trxOf(hex41: string): bigint {
    return this.accounts.get(hex41)?.balance ?? 0n;
  }

  /** Replaces an account (undefined: removes it); returns the undo. */
  private put(hex41: string, account: Account | undefined): () => void {
    const before = this.accounts.get(hex41);
    if (account) this.accounts.set(hex41, account);
    else this.accounts.delete(hex41);
    return () => {
      if (before) this.accounts.set(hex41, before);
      else this.accounts.delete(hex41);
    };
  }

  allocateTrx(hex41: string, sun: bigint, time: number): void {
    const account = this.accounts.get(hex41);
    this.put(hex41, account ? { ...account, balance: account.balance + sun } : newAccount(sun, time));
  }

  /**
   * The control API's change of an account outside any transaction: its TRX and the energy and
   * bandwidth its stake would give. Setting anything creates (activates) the account.
   */
  adjust(hex41: string, change: { trx?: bigint; energyLimit?: number; netLimit?: number }, time: number) {
    const account = this.accounts.get(hex41) ?? newAccount(0n, time);
    this.put(hex41, {
      ...account,
      ...(change.trx !== undefined ? { balance: change.trx } : {}),
      ...(change.energyLimit !== undefined ? { energyLimit: change.energyLimit } : {}),
      ...(change.netLimit !== undefined ? { netLimit: change.netLimit } : {}),
    });
  }

  /**
   * Energy a contract call needs: Tether's `transfer` costs about twice as much when the recipient
   * holds none of the token (a new balance slot); anything else, a revert included, the base cost.
   */
  energyOfCall(token: Trc20Token, data: string): number {
    if (!data.toLowerCase().startsWith(SELECTORS.transfer) || data.length < 8 + 128) {
      return ENERGY_TRANSFER_TO_HOLDER;
    }
    const to = addressFromWord(data.slice(8, 72));
    return token.balanceOf(to) === 0n ? ENERGY_TRANSFER_TO_EMPTY : ENERGY_TRANSFER_TO_HOLDER;
  }

  /**
   * Why the node refuses the transaction before accepting it, or undefined: first its bandwidth
   * (BANDWITH_ERROR, java-tron's spelling), then the contract's own validation. A contract call
   * that will revert or run out of energy is accepted: it fails on chain, as on TRON.
   */
  validate(tx: TronTransaction, time: number): Refusal | undefined {
    const call = callOf(tx);
    const refuse = (message: string): Refusal => ({ code: 'CONTRACT_VALIDATE_ERROR', message });
    if (call.kind === 'unsupported')
      return refuse(`Contract type ${call.type} is not supported by this node`);
    const owner = this.accounts.get(call.owner);
    if (!owner) return refuse(`Validate ${contractName(call)} error, no OwnerAccount.`);
    const creates = call.kind === 'transfer' && !this.accounts.has(call.to);
    const bill = bandwidthBill(
      owner,
      call.kind === 'transfer' ? BYTES_TRX_TRANSFER : BYTES_CONTRACT_CALL,
      time,
      creates,
    );
    if (bill.burnSun > owner.balance) {
      return { code: 'BANDWITH_ERROR', message: 'Account resource insufficient error.' };
    }
    const balance = owner.balance - bill.burnSun;
    if (call.kind === 'transfer') {
      if (call.amount <= 0n) return refuse('Amount must be greater than 0.');
      if (call.owner === call.to) return refuse('Cannot transfer TRX to yourself.');
      const fee = creates ? BigInt(CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract) : 0n;
      if (balance < call.amount + fee)
        return refuse('Validate TransferContract error, balance is not sufficient.');
      return undefined;
    }
    if (!this.tokens.has(call.contract)) return refuse('No contract or not a smart contract');
    const feeLimit = tx.raw_data.fee_limit ?? 0;
    if (feeLimit < 0 || feeLimit > MAX_FEE_LIMIT_SUN)
      return refuse('feeLimit must be >= 0 and <= 15000000000');
    if (call.callValue !== 0n)
      return refuse('Validate TriggerSmartContract error, callValue is not supported');
    return undefined;
  }

  /** Applies a validated transaction; undefined when it became invalid (it leaves the block). */
  execute(tx: TronTransaction, time: number): { executed: ExecutedTx; undo: Array<() => void> } | undefined {
    if (this.validate(tx, time)) return undefined;
    const call = callOf(tx);
    if (call.kind === 'transfer') return this.transferTrx(tx, call, time);
    if (call.kind !== 'trigger') return undefined;
    return this.trigger(tx, call, time);
  }

  private transferTrx(tx: TronTransaction, call: Extract<TronCall, { kind: 'transfer' }>, time: number) {
    const undo: Array<() => void> = [];
    const recipient = this.accounts.get(call.to);
    const bill = bandwidthBill(this.accounts.get(call.owner)!, BYTES_TRX_TRANSFER, time, !recipient);
    const createFee = recipient ? 0n : BigInt(CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract);
    const owner = payBandwidth(this.accounts.get(call.owner)!, bill, time);
    undo.push(this.put(call.owner, { ...owner, balance: owner.balance - call.amount - createFee }));
    undo.push(
      this.put(
        call.to,
        recipient
          ? { ...recipient, balance: recipient.balance + call.amount }
          : newAccount(call.amount, time),
      ),
    );
    const executed = receipt(tx, 'SUCCESS', {
      feeSun: bill.burnSun + createFee,
      netUsage: bill.from === 'burn' ? 0 : bill.bytes,
      netFeeSun: bill.burnSun,
    });
    return { executed, undo };
  }

  private trigger(tx: TronTransaction, call: Extract<TronCall, { kind: 'trigger' }>, time: number) {
    const undo: Array<() => void> = [];
    const token = this.tokens.get(call.contract)!;
    const bill = bandwidthBill(this.accounts.get(call.owner)!, BYTES_CONTRACT_CALL, time);
    const owner = payBandwidth(this.accounts.get(call.owner)!, bill, time);
    const needed = this.energyOfCall(token, call.data);
    const limit = energyLimitOf(owner, BigInt(tx.raw_data.fee_limit ?? 0), time);
    const used = Math.min(needed, limit);
    const paid = payEnergy(owner, used, time);
    undo.push(this.put(call.owner, paid.account));
    const base = {
      contract: call.contract,
      feeSun: bill.burnSun + paid.burnSun,
      netUsage: bill.from === 'burn' ? 0 : bill.bytes,
      netFeeSun: bill.burnSun,
      energyUsage: paid.fromStake,
      energyUsageTotal: used,
      energyFeeSun: paid.burnSun,
    };
    if (needed > limit) {
      // Energy ran out before the call finished: the whole limit is used (and its TRX burnt).
      return { executed: receipt(tx, 'OUT_OF_ENERGY', { ...base, resMessage: 'Not enough energy' }), undo };
    }
    const outcome = token.call(call.owner, call.data, false);
    if (!outcome.ok)
      return { executed: receipt(tx, 'REVERT', { ...base, resMessage: outcome.reason }), undo };
    if (outcome.undo) undo.push(outcome.undo);
    return {
      executed: receipt(tx, 'SUCCESS', { ...base, logs: outcome.logs, contractResult: outcome.result }),
      undo,
    };
  }
}

const contractName = (call: TronCall) =>
  call.kind === 'transfer' ? 'TransferContract' : 'TriggerSmartContract';

const receipt = (
  tx: TronTransaction,
  contractRet: ExecutedTx['contractRet'],
  parts: Partial<Omit<ExecutedTx, 'tx' | 'contractRet'>>,
): ExecutedTx => ({
  tx,
  contractRet,
  feeSun: 0n,
  energyUsage: 0,
  energyUsageTotal: 0,
  energyFeeSun: 0n,
  netUsage: 0,
  netFeeSun: 0n,
  logs: [],
  contractResult: '',
  ...parts,
});
