import { randomBytes } from 'node:crypto';
import { utils } from 'tronweb';
import { Trc20Token } from './trc20-token';
import { type ChainBlock, TronChain } from './tron-chain';
import {
  addressWord,
  base58Of,
  fromUnits,
  hexAddressOf,
  SELECTORS,
  sha256Hex,
  toUnits,
  word,
} from './tron-codec';
import { newAccount, resourcesOf } from './tron-resources';
import { TronTraffic } from './tron-traffic';
import { signedTransaction } from './tron-transaction';

/** Tether's USDT contract on TRON mainnet: the sandbox deploys its token at the same address. */
export const SANDBOX_USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A fixed private key of the sandbox (never real money): the same accounts on every start. */
const sandboxKey = (name: string) => sha256Hex(`gridbot sandbox TRON ${name}`);
const addressOfKey = (key: string) =>
  (utils.address.toHex(utils.address.fromPrivateKey(key) as string) as string).toLowerCase();

/** An address funded in the genesis block (e.g. the demo's hot wallet). */
export type GenesisAllocation = { address: string; usdt?: string; trx?: string };

export type SandboxTronConfig = {
  seed: string;
  genesisTime: number;
  genesis: GenesisAllocation[];
};

export type SandboxTronOptions = {
  genesis?: GenesisAllocation[];
  blockTimeMs?: number;
  solidityLag?: number;
  now?: () => number;
};

/**
 * Balances of an address, decimal strings: TRX, the real USDT, the fake token calling itself USDT;
 * and its resources now: energy and staked bandwidth (limit, used), free bandwidth used.
 */
export type TronBalances = {
  address: string;
  trx: string;
  usdt: string;
  fakeUsdt: string;
  activated: boolean;
  energyLimit: number;
  energyUsed: number;
  netLimit: number;
  netUsed: number;
  freeNetUsed: number;
};

/**
 * The control API's change of an account, outside any transaction: TRX and USDT (decimal
 * strings) set to these amounts, energy and bandwidth limits as staking would give them.
 */
export type AccountAdjustment = {
  address: string;
  trx?: string;
  usdt?: string;
  energyLimit?: number;
  netLimit?: number;
};

export type SendInput = {
  to: string;
  /** USDT, decimal string (6 decimals). */
  amount: string;
  /** `fake`: the look-alike contract whose symbol is also USDT. */
  token?: 'usdt' | 'fake';
  /** Sent from an account without tokens: the transfer is packed but reverts (receipt REVERT). */
  fail?: boolean;
};

const FAUCET_SUPPLY = toUnits('1000000000');
const FAUCET_TRX = toUnits('1000000000');
const FEE_LIMIT = 100_000_000;

/**
 * The sandbox TRON network: the chain, Tether's USDT at its mainnet address, a look-alike token
 * also named USDT at another address, and the sandbox's own accounts — a faucet holding both
 * tokens and TRX, and an account holding only TRX whose token transfers revert. Everything a
 * control call does on chain is a real signed transaction packed into the next block.
 */
export class SandboxTron {
  readonly chain: TronChain;
  readonly usdt: Trc20Token;
  readonly fake: Trc20Token;
  readonly faucet = { key: sandboxKey('faucet'), address: addressOfKey(sandboxKey('faucet')) };
  readonly reverter = { key: sandboxKey('reverter'), address: addressOfKey(sandboxKey('reverter')) };
  readonly witness = { key: sandboxKey('witness'), address: addressOfKey(sandboxKey('witness')) };
  /** Requests to the node's HTTP API, counted, and the request budget imposed on them. */
  readonly traffic = new TronTraffic();

  constructor(
    readonly config: SandboxTronConfig,
    options: SandboxTronOptions = {},
  ) {
    this.chain = new TronChain({
      seed: config.seed,
      genesisTime: config.genesisTime,
      ...(options.blockTimeMs !== undefined ? { blockTimeMs: options.blockTimeMs } : {}),
      ...(options.solidityLag !== undefined ? { solidityLag: options.solidityLag } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    const fakeAddress = `41${sha256Hex('gridbot sandbox TRON fake USDT').slice(0, 40)}`;
    this.usdt = new Trc20Token({
      address: hexAddressOf(SANDBOX_USDT_CONTRACT)!,
      name: 'Tether USD',
      symbol: 'USDT',
      decimals: 6,
    });
    this.fake = new Trc20Token({ address: fakeAddress, name: 'Tether USD', symbol: 'USDT', decimals: 6 });
    const { state } = this.chain;
    for (const token of [this.usdt, this.fake]) {
      state.tokens.set(token.spec.address, token);
      token.allocate(this.faucet.address, FAUCET_SUPPLY);
    }
    state.allocateTrx(this.faucet.address, FAUCET_TRX, config.genesisTime);
    state.allocateTrx(this.reverter.address, toUnits('100000'), config.genesisTime);
    for (const allocation of config.genesis) {
      const address = hexAddressOf(allocation.address);
      if (!address) throw new Error(`genesis: not a TRON address: ${allocation.address}`);
      if (allocation.usdt) this.usdt.allocate(address, toUnits(allocation.usdt));
      if (allocation.trx) state.allocateTrx(address, toUnits(allocation.trx), config.genesisTime);
    }
  }

  static freshConfig(genesis: GenesisAllocation[] = [], now = Date.now()): SandboxTronConfig {
    return { seed: randomBytes(8).toString('hex'), genesisTime: now, genesis };
  }

  /** Sends USDT (or the fake token) from the faucet; the transaction lands in the next block. */
  send(input: SendInput): { txid: string } {
    const to = hexAddressOf(input.to);
    if (!to) throw new Error(`not a TRON address: ${input.to}`);
    const token = input.token === 'fake' ? this.fake : this.usdt;
    const from = input.fail ? this.reverter : this.faucet;
    const data = SELECTORS.transfer + addressWord(to) + word(toUnits(input.amount));
    return this.submit(
      signedTransaction(
        {
          type: 'TriggerSmartContract',
          value: { data, owner_address: from.address, contract_address: token.spec.address },
        },
        this.chain.refBlock(),
        from.key,
        FEE_LIMIT,
      ),
    );
  }

  /** Sends TRX from the faucet (activates the account, pays for energy). */
  sendTrx(input: { to: string; amount: string }): { txid: string } {
    const to = hexAddressOf(input.to);
    if (!to) throw new Error(`not a TRON address: ${input.to}`);
    return this.submit(
      signedTransaction(
        {
          type: 'TransferContract',
          value: {
            to_address: to,
            owner_address: this.faucet.address,
            amount: Number(toUnits(input.amount)),
          },
        },
        this.chain.refBlock(),
        this.faucet.key,
      ),
    );
  }

  private submit(tx: ReturnType<typeof signedTransaction>): { txid: string } {
    const answer = this.chain.broadcast(tx);
    if ('code' in answer) {
      throw new Error(`${answer.code}: ${Buffer.from(answer.message, 'hex').toString('utf8')}`);
    }
    return { txid: answer.txid };
  }

  mine(count = 1): ChainBlock[] {
    return Array.from({ length: count }, () => this.chain.produceBlock());
  }

  balances(address: string): TronBalances {
    const hex = hexAddressOf(address);
    if (!hex) throw new Error(`not a TRON address: ${address}`);
    const account = this.chain.state.accounts.get(hex);
    const resources = resourcesOf(account ?? newAccount(0n, 0), this.chain.head.timestamp);
    return {
      address: base58Of(hex),
      trx: fromUnits(this.chain.state.trxOf(hex)),
      usdt: fromUnits(this.usdt.balanceOf(hex)),
      fakeUsdt: fromUnits(this.fake.balanceOf(hex)),
      activated: account !== undefined,
      energyLimit: resources.energyLimit,
      energyUsed: resources.energyUsed,
      netLimit: resources.netLimit,
      netUsed: resources.netUsed,
      freeNetUsed: account ? resources.freeNetUsed : 0,
    };
  }

  /**
   * Sets an account's TRX, USDT or resource limits at once (so a hot wallet can run dry or be
   * topped up in a test); journaled like a block, so a restarted node replays it.
   */
  adjust(input: AccountAdjustment): TronBalances {
    const hex = hexAddressOf(input.address);
    if (!hex) throw new Error(`not a TRON address: ${input.address}`);
    const time = this.chain.head.timestamp;
    if (input.trx !== undefined || input.energyLimit !== undefined || input.netLimit !== undefined) {
      this.chain.state.adjust(
        hex,
        {
          ...(input.trx !== undefined ? { trx: toUnits(input.trx) } : {}),
          ...(input.energyLimit !== undefined ? { energyLimit: input.energyLimit } : {}),
          ...(input.netLimit !== undefined ? { netLimit: input.netLimit } : {}),
        },
        time,
      );
    }
    if (input.usdt !== undefined) this.usdt.setBalance(hex, toUnits(input.usdt));
    this.chain.journal?.adjust?.(input);
    return this.balances(input.address);
  }

  status() {
    const { chain } = this;
    return {
      head: chain.head.number,
      solid: chain.solidNumber,
      headTime: chain.head.timestamp,
      pending: chain.pendingCount,
      usdtContract: base58Of(this.usdt.spec.address),
      fakeUsdtContract: base58Of(this.fake.spec.address),
      faucet: base58Of(this.faucet.address),
      blockTimeMs: chain.blockTimeMs,
      solidityLag: chain.solidityLag,
    };
  }
}
