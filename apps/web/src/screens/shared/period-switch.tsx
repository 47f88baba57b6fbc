import type { CoinProfitPeriod } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../ui/segmented';

const PERIODS: readonly CoinProfitPeriod[] = ['day', 'week', 'month', 'year', 'all'];

/** The coin profit's window (docs/pnl.md#portfolio-figures): day, week, month, year or all, in UTC days. */
export const PeriodSwitch = ({
  label,
  value,
  onChange,
}: {
  label: string;
  value: CoinProfitPeriod;
  onChange: (period: CoinProfitPeriod) => void;
}) => {
  const { t } = useTranslation();
  return (
    <>
      <Segmented
        label={label}
        value={value}
        onChange={onChange}
        options={PERIODS.map((period) => ({ value: period, label: t(`portfolio.periods.${period}`) }))}
      />
      {/* Periods are whole UTC days, today's included (docs/pnl.md#portfolio-figures). */}
      <p className="section-hint">{t('pnl.utcDays')}</p>
    </>
  );
};
