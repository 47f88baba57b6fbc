import type { EventLog, Trc20Token } from './trc20-token';
import { callOf, type TronCall, type TronTransaction } from './tron-transaction';

/** Energy a TRC20 transfer burns (Tether's contract, recipient without a balance) and its price. */
export const ENERGY_PER_CALL = 64_285;
export const SUN_PER_ENERGY = 210n;
export const CALL_FEE_SUN = BigInt(ENERGY_PER_CALL) * SUN_PER_ENERGY;
/** The largest fee_limit java-tron accepts: 15,000 TRX. */
export const MAX_FEE_LIMIT_SUN = 15_000_000_000;
const NET_USAGE_TRANSFER = 268;
const NET_USAGE_TRIGGER = 345;

/** What a transaction did once packed into a block (the node's receipt). */
export type ExecutedTx = {
  tx: TronTransaction;
  /** The `ret[0].contractRet` of the transaction; transfers of TRX are SUCCESS. */
  contractRet: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';
  contract?: string;
  feeSun: bigint;
  energyUsage: number;
  netUsage: number;
  logs: EventLog[];
  contractResult: string;
  resMessage?: string;
};

type Account = { balance: bigint; createTime: number };

/**
 * The world state of the sandbox chain: TRX accounts and TRC20 contracts. `execute` applies one
 * transaction and returns its receipt and how to undo it (a fork rolls blocks back).
 */
export class TronState {
  readonly accounts = new Map<string, Account>();
  readonly tokens = new Map<string, Trc20Token>();

  trxOf(hex41: string): bigint {
    return this.accounts.get(hex41)?.balance ?? 0n;
  }

  /** Sets an account's TRX; returns the undo. A first credit creates the account (activation). */
  private setTrx(hex41: string, balance: bigint, time: number): () => void {
    const before = this.accounts.get(hex41);
    this.accounts.set(hex41, { balance, createTime: before?.createTime ?? time });
    return () => {
      if (before) this.accounts.set(hex41, before);
      else this.accounts.delete(hex41);
    };
  }

  allocateTrx(hex41: string, sun: bigint, time: number): void {
    this.setTrx(hex41, this.trxOf(hex41) + sun, time);
  }

  /**
   * Why the node refuses the transaction before accepting it (CONTRACT_VALIDATE_ERROR), or
   * undefined. A contract call that will revert is accepted: it fails on chain, as on TRON.
   */
  validate(tx: TronTransaction): string | undefined {
    const call = callOf(tx);
    if (call.kind === 'unsupported') return `Contract type ${call.type} is not supported by this node`;
    if (!this.accounts.has(call.owner)) return `Validate ${contractName(call)} error, no OwnerAccount.`;
    if (call.kind === 'transfer') {
      if (call.amount <= 0n) return 'Amount must be greater than 0.';
      if (call.owner === call.to) return 'Cannot transfer TRX to yourself.';
      if (this.trxOf(call.owner) < call.amount)
        return 'Validate TransferContract error, balance is not sufficient.';
      return undefined;
    }
    if (!this.tokens.has(call.contract)) return 'No contract or not a smart contract';
    const feeLimit = tx.raw_data.fee_limit ?? 0;
    if (feeLimit < 0 || feeLimit > MAX_FEE_LIMIT_SUN) return 'feeLimit must be >= 0 and <= 15000000000';
    if (call.callValue !== 0n) return 'Validate TriggerSmartContract error, callValue is not supported';
    return undefined;
  }

  /** Applies a validated transaction; undefined when it became invalid (it leaves the block). */
  execute(tx: TronTransaction, time: number): { executed: ExecutedTx; undo: Array<() => void> } | undefined {
    if (this.validate(tx)) return undefined;
    const call = callOf(tx);
    const undo: Array<() => void> = [];
    if (call.kind === 'transfer') {
      undo.push(this.setTrx(call.owner, this.trxOf(call.owner) - call.amount, time));
      undo.push(this.setTrx(call.to, this.trxOf(call.to) + call.amount, time));
      return { executed: receipt(tx, 'SUCCESS', { netUsage: NET_USAGE_TRANSFER }), undo };
    }
    if (call.kind !== 'trigger') return undefined;
    const token = this.tokens.get(call.contract)!;
    const base = { contract: call.contract, netUsage: NET_USAGE_TRIGGER };
    const feeLimit = BigInt(tx.raw_data.fee_limit ?? 0);
    const balance = this.trxOf(call.owner);
    if (CALL_FEE_SUN > feeLimit || CALL_FEE_SUN > balance) {
      // Energy ran out before the call finished: whatever TRX the fee limit allowed is burnt.
      const burnt = feeLimit < balance ? feeLimit : balance;
      undo.push(this.setTrx(call.owner, balance - burnt, time));
      const energy = Number(burnt / SUN_PER_ENERGY);
      return {
        executed: receipt(tx, 'OUT_OF_ENERGY', { ...base, feeSun: burnt, energyUsage: energy }),
        undo,
      };
    }
    undo.push(this.setTrx(call.owner, balance - CALL_FEE_SUN, time));
    const outcome = token.call(call.owner, call.data, false);
    const paid = { ...base, feeSun: CALL_FEE_SUN, energyUsage: ENERGY_PER_CALL };
    if (!outcome.ok) {
      return { executed: receipt(tx, 'REVERT', { ...paid, resMessage: outcome.reason }), undo };
    }
    if (outcome.undo) undo.push(outcome.undo);
    return {
      executed: receipt(tx, 'SUCCESS', { ...paid, logs: outcome.logs, contractResult: outcome.result }),
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
  netUsage: 0,
  logs: [],
  contractResult: '',
  ...parts,
});
