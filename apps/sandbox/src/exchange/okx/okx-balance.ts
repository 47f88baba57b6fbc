import { Dec } from '../money';
import type { SandboxExchange } from '../sandbox-exchange';

/**
 * The trading account as Get balance and the account channel give it: one entry with `details` per
 * coin. For spot: `cashBal` and `eq` are free + frozen, `availBal` (and `availEq`) the free part,
 * `frozenBal` and `ordFrozen` what open orders hold. Without `wanted`, the coins with a balance.
 * USD values are not modelled ("0"). docs/venues/okx.md#keys (trading account)
 */
export const accountSnapshot = (exchange: SandboxExchange, accountId: number, wanted?: string[]) => {
  const uTime = String(exchange.accounts.account(accountId).updatedAt);
  const details = exchange.accounts
    .balances(accountId)
    .filter((b) =>
      wanted && wanted.length > 0
        ? wanted.includes(b.asset)
        : !new Dec(b.free).isZero() || !new Dec(b.locked).isZero(),
    )
    .map((b) => {
      const free = new Dec(b.free).toFixed();
      const frozen = new Dec(b.locked).toFixed();
      const total = new Dec(b.free).add(b.locked).toFixed();
      return {
        accAvgPx: '',
        availBal: free,
        availEq: free,
        borrowFroz: '0',
        cashBal: total,
        ccy: b.asset,
        crossLiab: '0',
        disEq: '0',
        eq: total,
        eqUsd: '0',
        fixedBal: '0',
        frozenBal: frozen,
        imr: '',
        interest: '0',
        isoEq: '0',
        isoLiab: '0',
        isoUpl: '0',
        liab: '0',
        maxLoan: '0',
        mgnRatio: '',
        mmr: '',
        notionalLever: '',
        openAvgPx: '',
        ordFrozen: frozen,
        spotBal: '',
        spotInUseAmt: '',
        spotIsoBal: '0',
        spotUpl: '',
        spotUplRatio: '',
        stgyEq: '0',
        totalPnl: '',
        totalPnlRatio: '',
        twap: '0',
        uTime,
        upl: '0',
        uplLiab: '0',
      };
    });
  return [
    {
      adjEq: '',
      availEq: '',
      borrowFroz: '',
      details,
      imr: '',
      isoEq: '0',
      mgnRatio: '',
      mmr: '',
      notionalUsd: '',
      ordFroz: '',
      totalEq: '0',
      uTime,
      upl: '',
    },
  ];
};
