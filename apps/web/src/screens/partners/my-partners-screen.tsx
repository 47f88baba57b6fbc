import { listMyPartners } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiPages } from '../../api/use-api-pages';
import { useFormat } from '../../format/use-format';
import { PagesView } from '../../ui/pages-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState } from '../../ui/states';
import { MeasuresCard } from './measures-card';
import { PartnerRow } from './partner-row';

/** docs/product.md#limits: partners page size 10, default period current_month. */
const PAGE_SIZE = 10;
type Period = 'current_month' | 'last_month';

/** My partners of a month: that month's measures and the partners, loaded page by page. */
export const MyPartnersScreen = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [period, setPeriod] = useState<Period>('current_month');
  const query = useApiPages(listMyPartners, (page) => ({
    params: { period },
    query: { page, limit: PAGE_SIZE },
  }));
  const first = query.data?.pages[0];
  return (
    <Screen back title={t('myPartners.title')}>
      <Segmented
        label={t('myPartners.title')}
        value={period}
        onChange={setPeriod}
        options={[
          { value: 'current_month', label: t('myPartners.currentMonth') },
          { value: 'last_month', label: t('myPartners.lastMonth') },
        ]}
      />
      {first ? (
        <MeasuresCard
          measures={first.measures}
          title={t('partners.measures', { month: format.month(first.month) })}
        />
      ) : null}
      {first ? <SectionTitle>{t('partners.team')}</SectionTitle> : null}
      <PagesView
        query={query}
        itemsOf={(page) => page.partners.items}
        empty={<EmptyState title={t('myPartners.empty')} />}
      >
        {(partners) => (
          <Card flush>
            {partners.map((partner) => (
              <PartnerRow
                key={partner.uid}
                partner={partner}
                extra={partner.trading ? t('myPartners.trading') : t('myPartners.notTrading')}
              />
            ))}
          </Card>
        )}
      </PagesView>
    </Screen>
  );
};
