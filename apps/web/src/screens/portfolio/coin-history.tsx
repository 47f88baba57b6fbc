import type { PortfolioCoin } from '@gridbot/contracts';
import { MarketStepsProvider } from '../../format/market-format';
import { CoinActivity } from './activity-log';
import { CoinDeals } from './deals-list';

/** The coin page's history below its grid: the coin bot's deals, then its activity log, at the coin's tick. */
export const CoinHistory = ({ coin }: { coin: PortfolioCoin }) => (
  <MarketStepsProvider value={{ priceTick: coin.priceTick, qtyStep: coin.qtyStep }}>
    <CoinDeals
      coinUserId={coin.coinUserId}
      coin={coin.coin}
      openDeals={coin.stats.openDeals}
      closedDeals={coin.stats.closedTrades}
    />
    <CoinActivity coinUserId={coin.coinUserId} />
  </MarketStepsProvider>
);
