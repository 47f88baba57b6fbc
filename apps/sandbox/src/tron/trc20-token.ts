import { addressFromWord, addressWord, SELECTORS, stringResult, TRANSFER_TOPIC, word } from './tron-codec';

export type TokenSpec = { address: string; name: string; symbol: string; decimals: number };

/** An event log as java-tron reports it: the contract's 20 bytes, topics and data as bare hex. */
export type EventLog = { address: string; topics: string[]; data: string };

export type CallOutcome =
  | { ok: true; result: string; logs: EventLog[]; undo?: () => void }
  | { ok: false; reason: string };

const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * A TRC20 token contract (the subset of Tether's TRON contract our code calls): `transfer`,
 * `balanceOf`, `decimals`, `symbol`, `name`, `totalSupply`. A successful transfer emits the real
 * Transfer(address,address,uint256) log; one beyond the sender's balance reverts, as the contract's
 * SafeMath does. Balances are keyed by 41… hex address.
 */
export class Trc20Token {
  readonly balances = new Map<string, bigint>();
  totalSupply = 0n;

  constructor(readonly spec: TokenSpec) {}

  balanceOf(hex41: string): bigint {
    return this.balances.get(hex41) ?? 0n;
  }

  /** Genesis allocation (no transaction, no log). */
  allocate(hex41: string, units: bigint): void {
    this.balances.set(hex41, this.balanceOf(hex41) + units);
    this.totalSupply += units;
  }

  /** Sets a balance outside any transaction (the control API: a wallet run dry or topped up). */
  setBalance(hex41: string, units: bigint): void {
    this.totalSupply += units - this.balanceOf(hex41);
    this.balances.set(hex41, units);
  }

  /** Runs call data (selector + ABI words) from `caller`; `constant` calls change nothing. */
  call(caller: string, data: string, constant: boolean): CallOutcome {
    const selector = data.slice(0, 8).toLowerCase();
    const args = data.slice(8);
    switch (selector) {
      case SELECTORS.transfer:
        return constant ? this.simulateTransfer(caller, args) : this.transfer(caller, args);
      case SELECTORS.balanceOf:
        if (args.length < 64) return { ok: false, reason: 'REVERT opcode executed' };
        return { ok: true, result: word(this.balanceOf(addressFromWord(args.slice(0, 64)))), logs: [] };
      case SELECTORS.decimals:
        return { ok: true, result: word(BigInt(this.spec.decimals)), logs: [] };
      case SELECTORS.symbol:
        return { ok: true, result: stringResult(this.spec.symbol), logs: [] };
      case SELECTORS.name:
        return { ok: true, result: stringResult(this.spec.name), logs: [] };
      case SELECTORS.totalSupply:
        return { ok: true, result: word(this.totalSupply), logs: [] };
      default:
        return { ok: false, reason: 'REVERT opcode executed' };
    }
  }

  private parseTransfer(caller: string, args: string) {
    if (args.length < 128 || !/^[0-9a-fA-F]*$/.test(args)) return undefined;
    const to = addressFromWord(args.slice(0, 64));
    const value = BigInt(`0x${args.slice(64, 128)}`);
    if (value > MAX_UINT256 || value > this.balanceOf(caller)) return undefined;
    return { to, value };
  }

  private simulateTransfer(caller: string, args: string): CallOutcome {
    return this.parseTransfer(caller, args)
      ? { ok: true, result: word(1n), logs: [] }
      : { ok: false, reason: 'REVERT opcode executed' };
  }

  private transfer(caller: string, args: string): CallOutcome {
    const parsed = this.parseTransfer(caller, args);
    if (!parsed) return { ok: false, reason: 'REVERT opcode executed' };
    const { to, value } = parsed;
    const before = { from: this.balanceOf(caller), to: this.balanceOf(to) };
    this.balances.set(caller, before.from - value);
    this.balances.set(to, this.balanceOf(to) + value);
    return {
      ok: true,
      result: word(1n),
      logs: [
        {
          address: this.spec.address.slice(2),
          topics: [TRANSFER_TOPIC, addressWord(caller), addressWord(to)],
          data: word(value),
        },
      ],
      undo: () => {
        this.balances.set(to, before.to);
        this.balances.set(caller, before.from);
      },
    };
  }
}
