import type { PartnerMeasures } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { Usdt } from '../../ui/money';
import { Card } from '../../ui/screen';
import { Stat, Stats } from '../../ui/stat';

const VOLUMES = [
  'personalVolume',
  'teamVolume',
  'generation1Volume',
  'generation2Volume',
  'generation3Volume',
] as const;
const COUNTS = [
  'newPersonalRegistrations',
  'newTeamRegistrations',
  'freeLicenseNonTrading',
  'activatedLicenses',
] as const;

/** Partner measures of a period (docs/product.md#data). */
export const MeasuresCard = ({ measures, title }: { measures: PartnerMeasures; title: string }) => {
  const { t } = useTranslation();
  return (
    <Card title={title}>
      <Stats>
        {VOLUMES.map((key) => (
          <Stat key={key} label={t(`measures.${key}`)} value={<Usdt value={measures[key]} />} />
        ))}
        {COUNTS.map((key) => (
          <Stat key={key} label={t(`measures.${key}`)} value={measures[key]} />
        ))}
      </Stats>
    </Card>
  );
};
