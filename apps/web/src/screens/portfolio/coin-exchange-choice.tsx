import { getPortfolio } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { EXCHANGE_NAMES } from '../../format/exchange-name';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { CoinAvatar, LinkRow } from '../../ui/list-row';
import { Card } from '../../ui/screen';
import { SkeletonRows } from '../../ui/states';

/**
 * A coin link without its exchange while the coin runs on several (the API answered
 * EXCHANGE_REQUIRED): one row per exchange the coin runs on, to the same screen
 * (docs/grid.md#coins-on-several-exchanges).
 */
export const CoinExchangeChoice = ({
  coin,
  to,
}: {
  coin: string;
  to: '/portfolio/show' | '/portfolio/edit';
}) => {
  const { t } = useTranslation();
  const portfolio = useApiQuery(getPortfolio, INITIAL_INPUTS.portfolio);
  const bots = portfolio.data?.coins.filter((c) => c.coin === coin) ?? [];
  return (
    <Card title={t('token.chooseExchange', { coin })} flush>
      {portfolio.data ? (
        bots.map((bot) => (
          <LinkRow
            key={bot.coinUserId}
            link={{ to, search: { coin, exchange: bot.exchange } }}
            start={<CoinAvatar coin={coin} />}
            title={`${coin} · ${EXCHANGE_NAMES[bot.exchange]}`}
          />
        ))
      ) : (
        <SkeletonRows rows={2} />
      )}
    </Card>
  );
};
