import { deleteCoin, type PortfolioCoin } from '@gridbot/contracts';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { Button } from '../../ui/button';
import { Card, SectionTitle } from '../../ui/screen';
import { ActionProblem } from './action-problem';

/**
 * Removing a coin (docs/grid.md#removing-a-coin): the confirmation says what happens to its open
 * lots; afterwards the answer's counts are shown and the portfolio opens.
 */
export const RemoveCoin = ({ coin }: { coin: PortfolioCoin }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const remove = useApiMutation(deleteCoin, {
    onSuccess: (result) => {
      showToast(
        t('editToken.removed', {
          coin: result.coin,
          orders: result.cancelledOrders,
          lots: result.leftOnExchange.lots,
          quantity: format.qty(result.leftOnExchange.quantity, coin.qtyStep),
        }),
        'success',
      );
      void navigate({ to: '/portfolio' });
    },
  });
  const ask = async () => {
    const ok = await confirmAction({
      title: t('editToken.confirmRemoveTitle', { coin: coin.coin }),
      message: t('editToken.confirmRemove', {
        coin: coin.coin,
        lots: coin.stats.openDeals,
        quantity: format.qty(coin.stats.openQty, coin.qtyStep),
      }),
      confirmText: t('editToken.remove', { coin: coin.coin }),
      destructive: true,
    });
    if (ok) remove.mutate({ query: { data_send: coin.coin, exchange: coin.exchange } });
  };
  return (
    <>
      <SectionTitle>{t('editToken.removeTitle')}</SectionTitle>
      <Card>
        <div className="danger-zone">
          <p className="muted">{t('editToken.removeHint')}</p>
          {remove.isError && !remove.isPending ? (
            <ActionProblem error={remove.error} coin={coin.coin} />
          ) : null}
          <Button variant="danger" block busy={remove.isPending} onClick={() => void ask()}>
            {t('editToken.remove', { coin: coin.coin })}
          </Button>
        </div>
      </Card>
    </>
  );
};
