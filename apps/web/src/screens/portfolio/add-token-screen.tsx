import { addCoin, listAddableCoins } from '@gridbot/contracts';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { CoinAvatar, Row } from '../../ui/list-row';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { EmptyState } from '../../ui/states';

const exchangeName = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Add-token: the exchange's USDT spot markets, most traded first, with a search. */
export const AddTokenScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const [search, setSearch] = useState('');
  const term = useDeferredValue(
    search
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 15),
  );
  const query = useApiQuery(listAddableCoins, { query: term ? { search: term } : {} });
  const add = useApiMutation(addCoin, {
    onSuccess: ({ coin }) => {
      showToast(t('addToken.added', { coin: coin.coin }), 'success');
    },
    onError: (error) => showToast(errorText(error), 'error'),
  });
  return (
    <Screen back title={t('addToken.title')}>
      <Field
        label={t('common.search')}
        placeholder={t('addToken.searchPlaceholder')}
        value={search}
        onChange={setSearch}
        autoCapitalize="characters"
        autoComplete="off"
        inputMode="search"
      />
      <QueryView query={query} title={t('addToken.title')}>
        {(list) => (
          <>
            <p className="muted" style={{ margin: '0 4px 10px' }}>
              {t('addToken.exchange', { name: exchangeName(list.exchange) })} ·{' '}
              {t('addToken.limit', { used: list.coinsUsed, limit: list.coinsLimit })}
            </p>
            {list.keysConnected ? null : <Notice>{t('addToken.keysHint')}</Notice>}
            {list.coins.length === 0 ? (
              <Card>
                <EmptyState title={t('addToken.noMatches', { query: term })} />
              </Card>
            ) : (
              <Card flush>
                {list.coins.map((coin) => (
                  <Row
                    key={coin.coin}
                    start={<CoinAvatar coin={coin.coin} />}
                    title={coin.symbol}
                    subtitle={
                      <>
                        {coin.lastPrice ? format.amount(coin.lastPrice) : '—'}
                        {coin.change24hPct ? (
                          <span
                            className={signOf(coin.change24hPct) === 'zero' ? '' : signOf(coin.change24hPct)}
                          >
                            {' '}
                            · {t('addToken.change24h')} {format.pct(coin.change24hPct, { plus: true })}
                          </span>
                        ) : null}
                      </>
                    }
                    end={
                      coin.inPortfolio ? (
                        <Badge tone="neutral">{t('addToken.inPortfolio')}</Badge>
                      ) : (
                        <Button
                          small
                          variant="secondary"
                          busy={add.isPending && add.variables?.query.data_send === coin.coin}
                          onClick={() => add.mutate({ query: { data_send: coin.coin } })}
                        >
                          {t('addToken.add')}
                        </Button>
                      )
                    }
                  />
                ))}
              </Card>
            )}
          </>
        )}
      </QueryView>
    </Screen>
  );
};
