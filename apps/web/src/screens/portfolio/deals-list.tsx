import { type Deal, listCoinTrades } from '@gridbot/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiCursorPages } from '../../api/use-api-pages';
import { useMarketFormat } from '../../format/market-format';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { ChevronIcon } from '../../ui/icons';
import { Pct, Usdt } from '../../ui/money';
import { PagesView } from '../../ui/pages-view';
import { Card, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { KeyValue } from '../../ui/stat';
import { EmptyState } from '../../ui/states';
import { ExportCsv } from '../shared/export-csv';
import { OrderOnBookState } from '../shared/orders-on-book';
import { DealActions, DealPendingBadge } from './deal-actions';

type Status = 'open' | 'closed';
type Fill = Deal['buy'];

/** Deals per page: a screenful on a phone, and few enough for the 1 call per second limit to never matter. */
export const DEALS_PAGE_SIZE = 20;

const FillFacts = ({ title, fill, coin }: { title: string; fill: Fill; coin: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const market = useMarketFormat();
  return (
    <div className="deal__facts">
      <h3 className="deal__facts-title">
        {title} <Badge tone="neutral">{t(`deals.kind.${fill.kind}`)}</Badge>
      </h3>
      <KeyValue label={t('deals.time')} value={format.dateTime(fill.at)} />
      <KeyValue label={t('deals.price')} value={market.price(fill.price)} />
      <KeyValue label={t('deals.quantity')} value={`${market.qty(fill.quantity)} ${coin}`} />
      <KeyValue label={t('deals.amount')} value={<Usdt value={fill.quoteAmount} />} />
      <KeyValue label={t('deals.exchangeFee')} value={<Usdt value={fill.fee} />} />
      {fill.orderId ? (
        <KeyValue label={t('deals.orderId')} value={<span className="mono">{fill.orderId}</span>} />
      ) : null}
      {fill.clientOrderId ? (
        <KeyValue
          label={t('deals.clientOrderId')}
          value={<span className="mono">{fill.clientOrderId}</span>}
        />
      ) : null}
    </div>
  );
};

const DealDetails = ({ id, deal, coin }: { id: string; deal: Deal; coin: string }) => {
  const { t } = useTranslation();
  const market = useMarketFormat();
  return (
    <div className="nested-list deal__details" id={id}>
      <FillFacts title={t('deals.buy')} fill={deal.buy} coin={coin} />
      {deal.sell ? <FillFacts title={t('deals.sell')} fill={deal.sell} coin={coin} /> : null}
      {deal.takeProfitPrice ? (
        <div className="deal__facts">
          <h3 className="deal__facts-title">{t('deals.takeProfit')}</h3>
          {/* "Resting" only while it rests on the exchange (docs/grid.md#on-the-exchange). */}
          <KeyValue
            label={t(deal.takeProfitOnBook?.state === 'resting' ? 'deals.restingAt' : 'deals.plannedAt')}
            value={market.price(deal.takeProfitPrice)}
          />
          {deal.takeProfitOnBook ? (
            <KeyValue
              label={t('deals.onExchange')}
              value={<OrderOnBookState onBook={deal.takeProfitOnBook} />}
            />
          ) : null}
        </div>
      ) : null}
      <div className="deal__facts">
        <h3 className="deal__facts-title">{t('deals.result')}</h3>
        <KeyValue label={t('deals.cost')} value={<Usdt value={deal.cost} />} />
        <KeyValue
          label={deal.status === 'open' ? t('deals.pnlNow') : t('deals.pnl')}
          value={
            <>
              <Usdt value={deal.pnl} signed /> <Pct value={deal.pnlPct} signed />
            </>
          }
        />
        {deal.tradeFee ? (
          <KeyValue label={t('deals.platformFee')} value={<Usdt value={deal.tradeFee} exact />} />
        ) : null}
      </div>
      <DealActions deal={deal} />
    </div>
  );
};

/** One deal: lot, buy → take profit (open) or sell (closed), when, and its PnL; tapping shows the fills. */
const DealRow = ({
  deal,
  coin,
  open,
  onToggle,
}: {
  deal: Deal;
  coin: string;
  open: boolean;
  onToggle: () => void;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const market = useMarketFormat();
  const id = useId();
  const target = deal.sell
    ? market.price(deal.sell.price)
    : deal.takeProfitPrice
      ? t('deals.takeProfitShort', { price: market.price(deal.takeProfitPrice) })
      : t('token.notSet');
  const when = deal.sell ? deal.sell.at : deal.buy.at;
  return (
    <div className={`deal${open ? ' deal--open' : ''}`} data-lot={deal.lotNumber}>
      <button
        type="button"
        className="row deal__head"
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
      >
        <span className="avatar avatar--icon deal__lot" aria-hidden="true">
          {deal.lotNumber}
        </span>
        <span className="row__body">
          <span className="row__title deal__title">
            {t('token.lot', { number: deal.lotNumber })}{' '}
            <Badge tone="neutral">{t(`deals.kind.${deal.buy.kind}`)}</Badge>
            <DealPendingBadge lotNumber={deal.lotNumber} />
          </span>
          <span className="row__subtitle deal__line">
            {t('deals.route', { buy: market.price(deal.buy.price), sell: target })}
            {deal.takeProfitOnBook && deal.takeProfitOnBook.state !== 'resting' ? (
              <> {<OrderOnBookState onBook={{ ...deal.takeProfitOnBook, refusal: null }} />}</>
            ) : null}
          </span>
          {/* Quantity and time break apart, never inside a date. */}
          <span className="row__subtitle deal__line">
            <span className="nowrap">
              {market.qty(deal.quantity)} {coin}
            </span>
            {' · '}
            <span className="nowrap">
              {/* The tab says which: bought for open deals, sold for closed ones; spoken, not shown. */}
              <span className="visually-hidden">{t(deal.sell ? 'deals.sold' : 'deals.bought')} </span>
              {format.dateTime(when)}
            </span>
          </span>
        </span>
        <span className="row__end deal__pnl">
          <Usdt value={deal.pnl} signed unit={false} />
          <span className="deal__pct">
            <Pct value={deal.pnlPct} signed />
          </span>
        </span>
        <ChevronIcon className="row__chevron deal__chevron" />
      </button>
      {open ? <DealDetails id={id} deal={deal} coin={coin} /> : null}
    </div>
  );
};

const DealPages = ({ coinUserId, coin, status }: { coinUserId: number; coin: string; status: Status }) => {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState<string | null>(null);
  const query = useApiCursorPages(listCoinTrades, (cursor) => ({
    query: { coin_user_id: coinUserId, status, limit: DEALS_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }));
  const empty =
    status === 'open' ? (
      <EmptyState title={t('deals.emptyOpen')} text={t('deals.emptyOpenHint')} />
    ) : (
      <EmptyState title={t('deals.emptyClosed')} text={t('deals.emptyClosedHint')} />
    );
  return (
    <PagesView query={query} itemsOf={(page) => page.data} keyOf={(deal) => deal.lotId} empty={empty}>
      {(deals) => (
        <Card flush>
          {deals.map((deal) => (
            <DealRow
              key={deal.lotId}
              deal={deal}
              coin={coin}
              open={expanded === deal.lotId}
              onToggle={() => setExpanded(expanded === deal.lotId ? null : deal.lotId)}
            />
          ))}
        </Card>
      )}
    </PagesView>
  );
};

type CoinDealsProps = {
  coinUserId: number;
  coin: string;
  /** Counts from the coin's statistics, shown on the switch. */
  openDeals: number;
  closedDeals: number;
};

/** The coin bot's deals (docs/pnl.md#a-lot): open ones with their take profit, closed ones with their result. */
export const CoinDeals = ({ coinUserId, coin, openDeals, closedDeals }: CoinDealsProps) => {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>(openDeals === 0 && closedDeals > 0 ? 'closed' : 'open');
  return (
    <div className="coin-deals" data-status={status}>
      <SectionTitle>{t('deals.title')}</SectionTitle>
      <Segmented
        label={t('deals.switch')}
        value={status}
        onChange={setStatus}
        options={[
          { value: 'open', label: t('deals.open', { count: openDeals }) },
          { value: 'closed', label: t('deals.closed', { count: closedDeals }) },
        ]}
      />
      <DealPages key={status} coinUserId={coinUserId} coin={coin} status={status} />
      <ExportCsv query={{ file: 'deals', coin_user_id: coinUserId }} />
    </div>
  );
};
