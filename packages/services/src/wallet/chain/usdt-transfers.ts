import { tronBase58Of, tronHexOf } from '../tron-keys';
import type { NodeTransactionInfo } from './tron-node-client';

/** keccak256("Transfer(address,address,uint256)"): topic 0 of a TRC20 Transfer event. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** A Transfer of the configured USDT contract, identified by (txid, log index). */
export type UsdtTransfer = {
  txid: string;
  logIndex: number;
  from: string;
  to: string;
  /** micro-USDT (the token's 6 decimals). */
  amount: bigint;
  blockNumber: number;
  blockTime: Date;
};

const MAX_BIGINT = (1n << 63n) - 1n;
const WORD = /^[0-9a-fA-F]{64}$/;

/** True when the transaction succeeded: receipt SUCCESS and no FAILED result (docs/wallet.md#deposits). */
export const succeeded = (info: NodeTransactionInfo): boolean =>
  info.receipt?.result === 'SUCCESS' && info.result !== 'FAILED';

/**
 * The USDT Transfer events in transaction infos: only successful transactions, only logs emitted
 * by the configured contract address (a token that merely calls itself USDT has another address),
 * only well-formed Transfer(address,address,uint256) logs with a positive amount. The log index is
 * the log's position in its transaction, so (txid, log index) names one event for good.
 */
export const usdtTransfersOf = (infos: NodeTransactionInfo[], usdtContract: string): UsdtTransfer[] => {
  const contract = tronHexOf(usdtContract).slice(2);
  const transfers: UsdtTransfer[] = [];
  for (const info of infos) {
    if (!succeeded(info) || !info.log || info.blockNumber === undefined) continue;
    info.log.forEach((log, logIndex) => {
      const [topic, from, to] = log.topics ?? [];
      if (log.address?.toLowerCase() !== contract || log.topics?.length !== 3) return;
      if (topic?.toLowerCase() !== TRANSFER_TOPIC || !from || !to || !WORD.test(from) || !WORD.test(to))
        return;
      if (!log.data || !WORD.test(log.data)) return;
      const amount = BigInt(`0x${log.data}`);
      if (amount <= 0n || amount > MAX_BIGINT) return;
      transfers.push({
        txid: info.id.toLowerCase(),
        logIndex,
        from: tronBase58Of(from.slice(24)),
        to: tronBase58Of(to.slice(24)),
        amount,
        blockNumber: info.blockNumber!,
        blockTime: new Date(info.blockTimeStamp ?? 0),
      });
    });
  }
  return transfers;
};
