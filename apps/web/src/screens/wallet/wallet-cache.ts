import { getWallet, type ResponseOf } from '@gridbot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeyOf } from '../../api/query-keys';
import { INITIAL_INPUTS } from '../../session/initial-calls';

export type Wallet = ResponseOf<typeof getWallet>;
export type Balances = Wallet['balances'];

/** How often an open wallet screen asks again (the call is limited to 1 per 2 s per user). */
export const WALLET_REFRESH_MS = 10_000;
/** …and while money is on its way (a deposit awaiting finality, a withdrawal in progress). */
export const WALLET_BUSY_REFRESH_MS = 5_000;

export const walletRefreshMs = (wallet: Wallet | undefined): number =>
  wallet &&
  (wallet.pendingWithdrawals.length > 0 ||
    wallet.transactions.items.some((item) => item.status === 'pending'))
    ? WALLET_BUSY_REFRESH_MS
    : WALLET_REFRESH_MS;

/**
 * Every wallet call answers what it changed (the balances after a move, the address saved): it goes
 * into the wallet's cache at once, so the screen does not wait for the next wallet call (the
 * refresh right after may be refused by the rate limit); the refresh brings the transaction list.
 */
export const usePatchWallet = () => {
  const client = useQueryClient();
  return (patch: Partial<Pick<Wallet, 'balances' | 'withdrawAddress'>>) =>
    client.setQueryData<Wallet>(queryKeyOf(getWallet, INITIAL_INPUTS.wallet), (old) =>
      old ? { ...old, ...patch } : old,
    );
};
