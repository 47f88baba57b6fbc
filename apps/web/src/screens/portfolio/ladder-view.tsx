import type { Ladder, PlanOnBook } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useMarketFormat } from '../../format/market-format';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { Notice } from '../../ui/notice';
import { Card, SectionTitle } from '../../ui/screen';
import { OrderOnBookState } from '../shared/orders-on-book';

/**
 * The grid around the price: the next buys (deeper levels after the planned one) and take profits,
 * each planned order with where it stands on the exchange (docs/grid.md#on-the-exchange). Lots are
 * named by their number, as in the deals (docs/grid.md#lot-numbers).
 */
export const LadderView = ({ ladder, book }: { ladder: Ladder; book?: PlanOnBook }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const market = useMarketFormat(ladder);
  const empty = ladder.buys.length === 0 && ladder.takeProfits.length === 0 && !ladder.nextEntry;
  // "Waits for a sell" only while every take profit rests: otherwise nothing can sell.
  const takeProfitsRest = !book || book.takeProfits.resting === book.takeProfits.planned;
  return (
    <div className="ladder" data-testid="ladder">
      <SectionTitle>{t('token.grid')}</SectionTitle>
      {ladder.nextEntry ? (
        <Notice>
          {t('token.nextEntry', { amount: format.usdtExact(ladder.nextEntry.orderSize) })}
          {ladder.nextEntry.onBook ? (
            <>
              {' '}
              <OrderOnBookState onBook={ladder.nextEntry.onBook} />
            </>
          ) : null}
        </Notice>
      ) : null}
      {ladder.waiting && takeProfitsRest ? <Notice tone="warning">{t('token.waiting')}</Notice> : null}
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
            <div
              key={tp.lotId}
              className="ladder__order"
              data-lot={tp.lotNumber}
              data-on-book={tp.onBook?.state ?? 'none'}
            >
              <Row
                title={`${market.price(tp.price)} · ${t('token.lot', { number: tp.lotNumber })}`}
                subtitle={
                  <>
                    {`${market.qty(tp.quantity)} @ ${market.price(tp.buyPrice)}`}
                    {tp.onBook ? (
                      <>
                        <br />
                        <OrderOnBookState onBook={tp.onBook} />
                      </>
                    ) : null}
                  </>
                }
                end={<Usdt value={tp.expectedPnl} signed unit={false} />}
              />
            </div>
          ))}
        </Card>
      ) : null}
      {ladder.buys.length > 0 ? (
        <Card
          flush
          title={<span style={{ padding: '8px 16px 0', display: 'block' }}>{t('token.buys')}</span>}
        >
          {ladder.buys.map((buy) => (
            <div
              key={buy.lotNumber}
              className="ladder__order"
              data-lot={buy.lotNumber}
              data-on-book={buy.onBook?.state ?? 'none'}
            >
              <Row
                title={`${market.price(buy.price)} · ${t('token.lot', { number: buy.lotNumber })}`}
                subtitle={
                  <>
                    {`−${format.pct(buy.stepPct)} · ${market.qty(buy.quantity)} · ${t('token.dealOf', { position: buy.position, max: ladder.maxTrades })}`}
                    {buy.onBook ? (
                      <>
                        <br />
                        <OrderOnBookState onBook={buy.onBook} />
                      </>
                    ) : null}
                  </>
                }
                end={
                  // An edit preview marks the buy that will rest; the coin page says where it stands.
                  buy.resting && !buy.onBook ? (
                    <Badge tone="positive">{format.usdtExact(buy.orderSize)}</Badge>
                  ) : (
                    format.usdtExact(buy.orderSize)
                  )
                }
              />
            </div>
          ))}
        </Card>
      ) : null}
    </div>
  );
};
