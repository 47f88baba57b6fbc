import type { PartnerMeasures } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { Usdt } from '../../ui/money';
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

/**
 * Partner measures of a month (docs/bonuses.md#measures): licence volumes in USDT, then partner
 * counts. `heading` is the title's level where the card sits under another h2 (a dialog).
 */
export const MeasuresCard = ({
  measures,
  title,
  heading = 2,
}: {
  measures: PartnerMeasures;
  title: string;
  heading?: 2 | 3;
}) => {
  const { t } = useTranslation();
  const Title = heading === 2 ? 'h2' : 'h3';
  return (
    <div className="card" data-testid="measures">
      <Title className="card__title">{title}</Title>
      <Stats>
        {VOLUMES.map((key) => (
          <Stat
            key={key}
            label={t(`measures.${key}`)}
            value={
              <span data-measure={key}>
                <Usdt value={measures[key]} />
              </span>
            }
          />
        ))}
        {COUNTS.map((key) => (
          <Stat
            key={key}
            label={t(`measures.${key}`)}
            value={<span data-measure={key}>{measures[key]}</span>}
          />
        ))}
      </Stats>
    </div>
  );
};
