import { useTranslation } from 'react-i18next';
import { useFormat } from '../format/use-format';

/** The header of a UTC day in a list grouped by day (docs/pnl.md#days-and-times): `Today (UTC)`. */
export const UtcDayTitle = ({ day }: { day: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return <h3 className="activity-day__title">{t('pnl.utcDay', { day: format.utcDay(day) })}</h3>;
};
