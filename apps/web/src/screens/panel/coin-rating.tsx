import { COIN_RATING_MIN_BOTS, getCoinRating, type ResponseOf } from '@gridbot/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { CoinAvatar, Row } from '../../ui/list-row';
import { Pct } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState, SkeletonRows } from '../../ui/states';

type Rating = ResponseOf<typeof getCoinRating>;

/** Coins shown before "show all" (the rating holds up to 100). */
const TOP = 10;
/** Days to choose from: today, yesterday and the days before them. */
const DAYS = 7;
const DAY_MS = 86_400_000;

/** `today`, `yesterday`, then `YYYY-MM-DD` of the UTC days before (the rating's days are UTC, docs/pnl.md#days-and-months). */
const dayChoices = (now: number): string[] =>
  Array.from({ length: DAYS }, (_, index) => {
    if (index === 0) return 'today';
    if (index === 1) return 'yesterday';
    return new Date(now - index * DAY_MS).toISOString().slice(0, 10);
  });

const RatingList = ({ rating }: { rating: Rating }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const [all, setAll] = useState(false);
  const shown = all ? rating.coins : rating.coins.slice(0, TOP);
  return (
    <Card flush>
      <p className="coin-rating__of">{t('coinRating.of', { date: format.date(rating.date) })}</p>
      <ol className="coin-rating" aria-label={t('coinRating.of', { date: format.date(rating.date) })}>
        {shown.map((coin) => (
          <li key={coin.coin} className="coin-rating__item" data-rank={coin.rank}>
            <Row
              start={
                <>
                  <span className={`coin-rating__rank${coin.rank <= 3 ? ' coin-rating__rank--top' : ''}`}>
                    <span className="visually-hidden">{t('coinRating.rank', { rank: coin.rank })}</span>
                    <span aria-hidden="true">{coin.rank}</span>
                  </span>
                  <CoinAvatar coin={coin.coin} />
                </>
              }
              title={
                <>
                  {coin.coin}{' '}
                  {coin.inPortfolio ? <Badge tone="positive">{t('coinRating.mine')}</Badge> : null}
                </>
              }
              subtitle={t('coinRating.facts', { bots: coin.bots, trades: coin.closedTrades })}
              end={<Pct value={coin.profitPct} signed />}
            />
          </li>
        ))}
      </ol>
      {rating.coins.length > TOP ? (
        <div className="coin-rating__more">
          <Button variant="ghost" small onClick={() => setAll(!all)}>
            {all
              ? t('coinRating.showTop', { count: TOP })
              : t('coinRating.showAll', { count: rating.coins.length })}
          </Button>
        </div>
      ) : null}
    </Card>
  );
};

/** The platform's coins ranked by realized profit on a UTC day (docs/pnl.md#coin-rating), with a day chooser. */
export const CoinRating = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [now] = useState(Date.now);
  const [date, setDate] = useState('today');
  const query = useApiQuery(getCoinRating, { query: { date } }, { placeholderData: keepPreviousData });
  const labelOf = (day: string) =>
    day === 'today'
      ? t('coinRating.today')
      : day === 'yesterday'
        ? t('coinRating.yesterday')
        : format.shortDate(day);
  return (
    <>
      <SectionTitle>{t('coinRating.title')}</SectionTitle>
      <p className="section-hint">{t('coinRating.hint')}</p>
      <Segmented
        label={t('coinRating.day')}
        value={date}
        onChange={setDate}
        options={dayChoices(now).map((value) => ({ value, label: labelOf(value) }))}
      />
      <QueryView
        query={query}
        loading={<SkeletonRows rows={3} />}
        title={t('coinRating.title')}
        isEmpty={(rating) => rating.coins.length === 0}
        empty={
          <Card>
            <EmptyState
              title={t('coinRating.empty')}
              text={t('coinRating.emptyHint', { count: COIN_RATING_MIN_BOTS })}
            />
          </Card>
        }
      >
        {(rating) => <RatingList key={rating.date} rating={rating} />}
      </QueryView>
    </>
  );
};
