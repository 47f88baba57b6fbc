import type { CoinState } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeTone } from '../../ui/badge';

const TONES: Record<CoinState, BadgeTone> = {
  running: 'positive',
  waiting: 'warning',
  drying: 'accent',
  dried: 'neutral',
  paused: 'neutral',
  error: 'negative',
};

export const CoinStateBadge = ({ state }: { state: CoinState }) => {
  const { t } = useTranslation();
  return <Badge tone={TONES[state]}>{t(`coinState.${state}`)}</Badge>;
};
