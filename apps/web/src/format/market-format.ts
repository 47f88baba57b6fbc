import { createContext, useContext } from 'react';
import { useFormat } from './use-format';

/**
 * A coin's market as its answers carry it: the price tick (PRICE_FILTER tickSize) and the lot step
 * (LOT_SIZE stepSize); null where the exchange did not answer.
 */
export type MarketSteps = { priceTick: string | null; qtyStep: string | null };

const NO_STEPS: MarketSteps = { priceTick: null, qtyStep: null };

const MarketStepsContext = createContext<MarketSteps>(NO_STEPS);

/** The coin's market for the lists under it (deals, activity) that format its prices. */
export const MarketStepsProvider = MarketStepsContext.Provider;

export type MarketFormat = {
  /** A price at the tick, zeros kept (`79.40`): docs/conventions.md#money-and-numbers. */
  price: (value: string) => string;
  /** A quantity at the lot step, zeros kept (`0.2650`). */
  qty: (value: string) => string;
};

/**
 * Prices and quantities of one coin at its market's tick and lot step: of `steps` (an answer that
 * carries them: the coin, its ladder, its chart), else of the nearest MarketStepsProvider.
 */
export const useMarketFormat = (steps?: MarketSteps): MarketFormat => {
  const format = useFormat();
  const provided = useContext(MarketStepsContext);
  const { priceTick, qtyStep } = steps ?? provided;
  return {
    price: (value) => format.price(value, priceTick),
    qty: (value) => format.qty(value, qtyStep),
  };
};
