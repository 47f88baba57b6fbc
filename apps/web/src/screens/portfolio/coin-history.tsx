import type { PortfolioCoin } from '@gridbot/contracts';
import { CoinActivity } from './activity-log';
import { CoinDeals } from './deals-list';

/** The coin page's history below its grid: the coin bot's deals, then its activity log. */
export const CoinHistory = ({ coin }: { coin: PortfolioCoin }) => (
  <>
    <CoinDeals
      coinUserId={coin.coinUserId}
      coin={coin.coin}
      openDeals={coin.stats.openDeals}
      closedDeals={coin.stats.closedTrades}
    />
    <CoinActivity coinUserId={coin.coinUserId} />
  </>
);
