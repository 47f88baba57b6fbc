import type { Exchange } from '@gridbot/contracts';
import { EXCHANGE_NAMES } from '../format/exchange-name';
import { Badge } from './badge';

/** Which exchange a coin bot trades on, beside the coin's name (docs/grid.md#coins-on-several-exchanges). */
export const ExchangeTag = ({ exchange }: { exchange: Exchange }) => (
  <span data-exchange={exchange}>
    <Badge tone="neutral">{EXCHANGE_NAMES[exchange]}</Badge>
  </span>
);
