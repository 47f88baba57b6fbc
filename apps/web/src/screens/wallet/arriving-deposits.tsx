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
  useEffect(() => {
    for (const deposit of deposits) {
      // The line of a deposit on its way and its credited line differ in id, not in txid and amount.
      const key = `${deposit.txid ?? deposit.id}:${deposit.amount}`;
      if (deposit.status === 'pending') waiting.current.add(key);
      else if (waiting.current.delete(key) && deposit.status === 'credited') {
        showToast(t('deposit.credited', { amount: format.usdtExact(deposit.amount) }), 'success');
      }
    }
  }, [deposits, t, format]);
  if (deposits.length === 0) return null;
  const shown = [...arriving, ...deposits.filter((item) => item.status !== 'pending')].slice(0, SHOWN);
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
