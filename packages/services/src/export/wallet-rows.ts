import type { Transaction, TransactionType } from '@gridbot/contracts';
import type { ServiceContext } from '../context/service-context';
import { cursorPages } from '../paging/keyset-cursor';
import { listWalletTransactions } from '../wallet/wallet-transactions';
import type { CsvColumn } from './csv';

/** Lines per read of the wallet's transaction list. */
const LINES_PER_READ = 500;

/** The wallet's history (docs/wallet.md#transaction-list): the lines of the wallet screen. */
export const WALLET_COLUMNS: readonly CsvColumn<Transaction>[] = [
  { name: 'created_at', kind: 'instant', value: (r) => r.createdAt },
  { name: 'type', kind: 'text', value: (r) => r.type },
  { name: 'status', kind: 'text', value: (r) => r.status },
  { name: 'balance', kind: 'text', value: (r) => r.balance },
  { name: 'amount', kind: 'number', value: (r) => r.amount },
  { name: 'asset', kind: 'text', value: () => 'USDT' },
  { name: 'network_fee', kind: 'number', value: (r) => r.networkFee },
  { name: 'txid', kind: 'text', value: (r) => r.txid },
  { name: 'address', kind: 'text', value: (r) => r.address },
  { name: 'counterparty_uid', kind: 'number', value: (r) => r.counterparty?.uid },
  { name: 'counterparty_username', kind: 'text', value: (r) => r.counterparty?.username },
  { name: 'note', kind: 'text', value: (r) => r.note },
  { name: 'reason', kind: 'text', value: (r) => r.reason },
  { name: 'updated_at', kind: 'instant', value: (r) => r.updatedAt },
  { name: 'id', kind: 'text', value: (r) => r.id },
];

/** The first instant any history can have: the file covers all time, the screen its last days. */
const ALL_TIME = new Date(0);

/**
 * Every line of the user's wallet, newest first (of one type when given), a read at a time by the
 * list's keyset cursor (docs/decisions.md#lists-paged-by-cursor-issue-22): lines booked while the
 * file is written never push another out of it or into it twice.
 */
export const walletRows = (
  ctx: ServiceContext,
  input: { userId: number; type?: TransactionType | undefined },
): AsyncGenerator<readonly Transaction[]> =>
  cursorPages((cursor) =>
    listWalletTransactions(ctx.prisma, {
      userId: input.userId,
      since: ALL_TIME,
      type: input.type,
      page: 1,
      limit: LINES_PER_READ,
      cursor,
      count: false,
    }),
  );
