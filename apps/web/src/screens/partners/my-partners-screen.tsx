import { listMyPartners } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiCursorPages } from '../../api/use-api-pages';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { PagesView } from '../../ui/pages-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState, Skeleton } from '../../ui/states';
import { MeasuresCard } from './measures-card';
import { PartnerProfileDialog } from './partner-profile-dialog';
import { PartnerRow } from './partner-row';

/** docs/product.md#limits: partners page size 10, default period current_month. */
const PAGE_SIZE = 10;
const LINES = ['all', '1', '2', '3'] as const;
type Line = (typeof LINES)[number];

/** `YYYY-MM` of the UTC month `back` months before the current one. */
const monthBefore = (back: number): string => {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return date.toISOString().slice(0, 7);
};

/**
 * My partners of a month (docs/bonuses.md#partner-lists): that month's measures and the partners
 * of lines 1–3 registered by its end, newest first, 10 at a time; a partner opens their profile.
 */
export const MyPartnersScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [period, setPeriod] = useState<string>('current_month');
  const [line, setLine] = useState<Line>('all');
  const [opened, setOpened] = useState<number | null>(null);
  const query = useApiCursorPages(
    listMyPartners,
    (cursor) => ({
      params: { period },
      query: {
        limit: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
        ...(line === 'all' ? {} : { line: Number(line) }),
      },
    }),
    // The month's measures come with every page; the partners are the paged part.
    { pagedOf: (answer) => answer.partners },
  );
  const first = query.data?.pages[0];
  const periods = [
    { value: 'current_month', label: t('myPartners.currentMonth') },
    { value: 'last_month', label: t('myPartners.lastMonth') },
    ...[2, 3].map((back) => {
      const month = monthBefore(back);
      return { value: month, label: format.month(month) };
    }),
  ];
  return (
    <Screen back title={t('myPartners.title')}>
      <div className="partner-periods">
        <Segmented
          grid
          label={t('myPartners.period')}
          value={period}
          onChange={setPeriod}
          options={periods}
        />
      </div>
      {first ? (
        <MeasuresCard
          measures={first.measures}
          title={t('partners.measures', { month: format.month(first.month) })}
        />
      ) : query.isPending ? (
        <div className="card" aria-busy="true">
          <Skeleton height={200} />
        </div>
      ) : null}
      <SectionTitle
        action={
          first ? (
            <Badge tone="neutral">
              <span data-testid="partners-total">{first.partners.total}</span>
            </Badge>
          ) : undefined
        }
      >
        {t('myPartners.list')}
      </SectionTitle>
      <Segmented
        label={t('myPartners.lines')}
        value={line}
        onChange={setLine}
        options={LINES.map((value) => ({
          value,
          label: value === 'all' ? t('myPartners.allLines') : t('partners.line', { line: value }),
        }))}
      />
      <PagesView
        query={query}
        itemsOf={(page) => page.partners.items}
        keyOf={(partner) => String(partner.uid)}
        empty={<EmptyState title={t('myPartners.empty')} />}
      >
        {(partners) => (
          <Card flush>
            <div data-testid="partner-list">
              {partners.map((partner) => (
                <PartnerRow
                  key={partner.uid}
                  partner={partner}
                  onOpen={setOpened}
                  extra={[
                    partner.trading ? t('myPartners.trading') : '',
                    signOf(partner.personalVolume) === 'zero'
                      ? ''
                      : t('myPartners.purchases', { amount: format.usdt(partner.personalVolume) }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              ))}
            </div>
          </Card>
        )}
      </PagesView>
      {opened === null ? null : <PartnerProfileDialog uid={opened} onClose={() => setOpened(null)} />}
    </Screen>
  );
};
