import type { PortfolioCoin } from '@gridbot/contracts';
import { MarketStepsProvider } from '../../format/market-format';
import { CoinActivity } from './activity-log';
import { DealCoin } from './deal-actions';
import { CoinDeals } from './deals-list';

/**
 * The coin page's history below its grid: the coin bot's deals (each open one with its deal
 * controls, docs/grid.md#deal-controls), then its activity log, at the coin's tick.
 */
export const CoinHistory = ({ coin }: { coin: PortfolioCoin }) => (
  <MarketStepsProvider value={{ priceTick: coin.priceTick, qtyStep: coin.qtyStep }}>
    <DealCoin.Provider value={coin.coinUserId}>
      <CoinDeals
        coinUserId={coin.coinUserId}
        coin={coin.coin}
        openDeals={coin.stats.openDeals}
        closedDeals={coin.stats.closedTrades}
      />
      <CoinActivity coinUserId={coin.coinUserId} />
    </DealCoin.Provider>
  </MarketStepsProvider>
);
