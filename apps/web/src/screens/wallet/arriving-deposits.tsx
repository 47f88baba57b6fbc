import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { Card, SectionTitle } from '../../ui/screen';
import { TransactionRow } from './transaction-row';
import type { Wallet } from './wallet-cache';
import { arrivingDeposits } from './wallet-model';

/** Recent deposits shown under the address: the ones on their way first. */
const SHOWN = 5;

/**
 * Deposits on their way (seen on chain, waiting for the block to be final) and the latest ones;
 * one that gets credited while the screen is open is announced.
 */
export const ArrivingDeposits = ({ wallet }: { wallet: Wallet }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const deposits = wallet.transactions.items.filter((item) => item.type === 'deposit');
  const arriving = arrivingDeposits(deposits);
  const waiting = useRef(new Set<string>());
  const combined = useRef<Set<string> | null>(null);
  useEffect(() => {
    const credited = (amount: string) =>
      showToast(t('deposit.credited', { amount: format.usdtExact(amount) }), 'success');
    // Credits of deposits under the minimum together: new lines of their own (none on the first look).
    const firstLook = combined.current === null;
    combined.current ??= new Set();
    for (const deposit of deposits) {
      if (deposit.reason === 'below_minimum_combined') {
        if (!combined.current.has(deposit.id) && !firstLook) credited(deposit.amount);
        combined.current.add(deposit.id);
        continue;
      }
      // The line of a deposit on its way and its credited line differ in id, not in txid and amount.
      const key = `${deposit.txid ?? deposit.id}:${deposit.amount}`;
      if (deposit.status === 'pending') waiting.current.add(key);
      else if (waiting.current.delete(key) && deposit.status === 'credited') credited(deposit.amount);
    }
  }, [deposits, t, format]);
  if (deposits.length === 0) return null;
  const shown = [...arriving, ...deposits.filter((item) => !arriving.includes(item))].slice(0, SHOWN);
  return (
    <section data-testid="recent-deposits">
      <SectionTitle>{t(arriving.length > 0 ? 'deposit.arriving' : 'deposit.recent')}</SectionTitle>
      {arriving.length > 0 ? <p className="section-note">{t('deposit.arrivingHint')}</p> : null}
      <Card flush>
        <ul className="tx-list">
          {shown.map((deposit) => (
            <TransactionRow key={deposit.id} transaction={deposit} />
          ))}
        </ul>
      </Card>
    </section>
  );
};
