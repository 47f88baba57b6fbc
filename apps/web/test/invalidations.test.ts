import {
  editCoinSettings,
  getCoin,
  getPanel,
  getPortfolio,
  getProfile,
  getWallet,
  listCoinTrades,
  withdrawMoney,
} from '@gridbot/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeyOf } from '../src/api/query-keys';
import { invalidateAfter } from '../src/api/use-api';

/** A cache holding one answer per read, as after the initial load and a few screens. */
const filledCache = () => {
  const client = new QueryClient();
  const reads = [getCoin, getPanel, getPortfolio, getProfile, getWallet, listCoinTrades];
  for (const read of reads) client.setQueryData(queryKeyOf(read, { page: 1 }), { cached: true });
  // Load-more lists live under the same contract key with a 'pages' suffix.
  client.setQueryData([...queryKeyOf(getWallet, { days: 30 }), 'pages'], { pages: [] });
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.isInvalidated)
      .map((query) => query.queryKey[0])
      .sort();
  return { client, stale };
};

describe('one mutation hook invalidates what the contract declares', () => {
  it('marks stale exactly the reads the settings edit changes', async () => {
    const { client, stale } = filledCache();
    await invalidateAfter(client, editCoinSettings);
    expect(stale()).toEqual([getPanel.id, getCoin.id, getPortfolio.id].sort());
  });

  it('reaches paged lists of the wallet after a withdrawal', async () => {
    const { client, stale } = filledCache();
    await invalidateAfter(client, withdrawMoney);
    expect(stale()).toEqual([getWallet.id, getWallet.id]);
  });

  it('leaves the cache alone for a read', async () => {
    const { client, stale } = filledCache();
    await invalidateAfter(client, getPanel);
    expect(stale()).toEqual([]);
  });
});
