import type { CoinState, PlanOnBook } from '@gridbot/contracts';
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

/**
 * The coin's state; a coin whose planned orders are not all on the exchange (`book` off_book,
 * docs/grid.md#on-the-exchange) says so instead, unless it is already in error — "Waiting" or
 * "Running" would be untrue while its take profits or next buy are not resting.
 */
export const CoinStateBadge = ({ state, book }: { state: CoinState; book?: PlanOnBook }) => {
  const { t } = useTranslation();
  if (book?.status === 'off_book' && state !== 'error') {
    return <Badge tone="negative">{t('onBook.badge')}</Badge>;
  }
  return <Badge tone={TONES[state]}>{t(`coinState.${state}`)}</Badge>;
};
