import type { Ladder } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useMarketFormat } from '../../format/market-format';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Card, SectionTitle } from '../../ui/screen';

/** The grid around the price: the next buys (deeper levels after the resting one) and take profits. */
export const LadderView = ({ ladder }: { ladder: Ladder }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const market = useMarketFormat(ladder);
  const empty = ladder.buys.length === 0 && ladder.takeProfits.length === 0 && !ladder.nextEntry;
  return (
    <>
      <SectionTitle>{t('token.grid')}</SectionTitle>
      {ladder.nextEntry ? (
        <Notice>{t('token.nextEntry', { amount: format.usdtExact(ladder.nextEntry.orderSize) })}</Notice>
      ) : null}
      {ladder.waiting ? <Notice tone="warning">{t('token.waiting')}</Notice> : null}
      {empty ? (
        <Card>
          <p className="muted">{t('token.noOrders')}</p>
        </Card>
      ) : null}
      {ladder.takeProfits.length > 0 ? (
        <Card
          flush
          title={<span style={{ padding: '8px 16px 0', display: 'block' }}>{t('token.takeProfits')}</span>}
        >
          {ladder.takeProfits.map((tp) => (
            <Row
              key={tp.lotId}
              title={`${market.price(tp.price)} · ${t('token.lot', { number: tp.lotNumber })}`}
              subtitle={`${market.qty(tp.quantity)} @ ${market.price(tp.buyPrice)}`}
              end={<Usdt value={tp.expectedPnl} signed unit={false} />}
            />
          ))}
        </Card>
      ) : null}
      {ladder.buys.length > 0 ? (
        <Card
          flush
          title={<span style={{ padding: '8px 16px 0', display: 'block' }}>{t('token.buys')}</span>}
        >
          {ladder.buys.map((buy) => (
            <Row
              key={buy.lotNumber}
              title={`${market.price(buy.price)} · ${t('token.lot', { number: buy.lotNumber })}`}
              subtitle={`−${format.pct(buy.stepPct)} · ${market.qty(buy.quantity)}`}
              end={
                buy.resting ? (
                  <Badge tone="positive">{format.usdtExact(buy.orderSize)}</Badge>
                ) : (
                  format.usdtExact(buy.orderSize)
                )
              }
            />
          ))}
        </Card>
      ) : null}
    </>
  );
};
