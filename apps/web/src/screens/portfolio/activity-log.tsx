import { listCoinActivity } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useApiCursorPages } from '../../api/use-api-pages';
import { groupByDay } from '../../format/group-by-day';
import { useMarketFormat } from '../../format/market-format';
import { useFormat } from '../../format/use-format';
import { PagesView } from '../../ui/pages-view';
import { Card, SectionTitle } from '../../ui/screen';
import { EmptyState } from '../../ui/states';
import { UtcDayTitle } from '../../ui/utc-day-title';
import { type ActivityEntry, describeActivity } from './activity-text';

/** Entries per page of the log. */
export const ACTIVITY_PAGE_SIZE = 30;

/** Entries younger than this say how long ago they happened; older ones only their time. */
const RECENT_MS = 6 * 3_600_000;

/** `day`: the UTC day the entry is listed under (docs/pnl.md#days-and-times). */
const ActivityLine = ({ entry, day }: { entry: ActivityEntry; day: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const market = useMarketFormat();
  const text = describeActivity(entry, t, format, market);
  const recent = Date.now() - new Date(entry.at).getTime() < RECENT_MS;
  return (
    <li className="activity-line" data-kind={entry.kind}>
      <span className={`activity-line__dot activity-line__dot--${text.tone}`} aria-hidden="true" />
      <div className="activity-line__body">
        <div className="activity-line__title">{text.title}</div>
        {text.details.map((detail) => (
          <div key={detail} className="activity-line__detail">
            {detail}
          </div>
        ))}
        {text.quote ? <blockquote className="activity-line__quote mono">{text.quote}</blockquote> : null}
        <div className="activity-line__meta">
          <time dateTime={entry.at} title={format.dateTime(entry.at)}>
            {format.timeUnder(entry.at, day)}
            {recent ? ` · ${format.relative(entry.at)}` : ''}
          </time>
          {' · '}
          {t(`activity.actor.${entry.actor}`)}
        </div>
      </div>
    </li>
  );
};

/** The coin bot's activity log (docs/grid.md#activity-log), newest first, grouped by day, loaded a page at a time. */
export const CoinActivity = ({ coinUserId }: { coinUserId: number }) => {
  const { t } = useTranslation();
  const query = useApiCursorPages(listCoinActivity, (cursor) => ({
    query: { coin_user_id: coinUserId, limit: ACTIVITY_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  }));
  return (
    <div className="coin-activity">
      <SectionTitle>{t('activity.title')}</SectionTitle>
      <PagesView
        query={query}
        itemsOf={(page) => page.data}
        keyOf={(entry) => entry.id}
        empty={<EmptyState title={t('activity.empty')} />}
      >
        {(entries) =>
          groupByDay(entries, (entry) => entry.at).map(({ day, items: ofDay }) => (
            <section key={day} className="activity-day">
              <UtcDayTitle day={day} />
              <Card flush>
                <ul className="activity-list">
                  {ofDay.map((entry) => (
                    <ActivityLine key={entry.id} entry={entry} day={day} />
                  ))}
                </ul>
              </Card>
            </section>
          ))
        }
      </PagesView>
    </div>
  );
};
