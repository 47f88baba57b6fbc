import type { Ladder, OrderOnBook, PlanOnBook } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { isCatalogueCode } from '../../api/error-text';
import { useCatalogueText } from '../../api/use-action-error';
import { Badge, type BadgeTone } from '../../ui/badge';
import { Notice } from '../../ui/notice';

type Refusal = NonNullable<OrderOnBook['refusal']>;

const TONES: Record<OrderOnBook['state'], BadgeTone> = {
  resting: 'positive',
  placing: 'neutral',
  refused: 'negative',
  missing: 'warning',
};

/**
 * Why the exchange refused an order, in the reader's language, with the exchange's own code when it
 * gave one — "… (exchange code -2010)", what its support and documentation go by
 * (docs/grid.md#on-the-exchange).
 */
export const useRefusalText = () => {
  const { t } = useTranslation();
  const catalogue = useCatalogueText();
  const reasonOf = (refusal: Refusal): string => {
    if (refusal.reason !== 'other') return t(`onBook.reason.${refusal.reason}`);
    if (refusal.code && isCatalogueCode(refusal.code)) return catalogue(refusal.code);
    return refusal.message ?? t('onBook.reason.other');
  };
  return (refusal: Refusal): string =>
    refusal.exchangeCode
      ? t('onBook.withExchangeCode', { reason: reasonOf(refusal), code: refusal.exchangeCode })
      : reasonOf(refusal);
};

/** Where one planned order stands on the exchange: a badge, and for a refusal the exchange's reason. */
export const OrderOnBookState = ({ onBook }: { onBook: OrderOnBook }) => {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  return (
    <span className="order-on-book" data-state={onBook.state}>
      <Badge tone={TONES[onBook.state]}>{t(`onBook.state.${onBook.state}`)}</Badge>
      {onBook.refusal ? <span className="negative"> {refusalText(onBook.refusal)}</span> : null}
    </span>
  );
};

/** The plan is not all on the book: some planned order is refused or missing. */
export const isOffBook = (book: PlanOnBook | undefined): boolean => book?.status === 'off_book';

/** The first refusal among the ladder's planned orders (take profits first, as they are placed). */
const firstRefusal = (ladder: Ladder | undefined): Refusal | null => {
  if (!ladder) return null;
  const orders = [...ladder.takeProfits, ...ladder.buys, ...(ladder.nextEntry ? [ladder.nextEntry] : [])];
  return orders.find((o) => o.onBook?.refusal)?.onBook?.refusal ?? null;
};

/**
 * What of the coin's plan is not on the exchange, in a sentence (docs/grid.md#on-the-exchange):
 * "2 of 10 take profits are not on the exchange: 1 refused, 1 missing", the next buy likewise,
 * and the exchange's reason for the first refusal. A warning when something is refused or missing;
 * a plain note while orders are only being placed. `compact`: a few words for a list row.
 */
export const PlanOnBookNote = ({
  book,
  ladder,
  compact = false,
}: {
  book: PlanOnBook;
  ladder?: Ladder;
  compact?: boolean;
}) => {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  if (book.status !== 'off_book' && book.status !== 'placing') return null;
  const { takeProfits: tps, buys } = book;
  const off = (c: PlanOnBook['takeProfits']) => c.planned - c.resting;
  if (compact) {
    if (book.status !== 'off_book') return null;
    return (
      <span className="negative" data-testid="plan-on-book-short">
        {t('onBook.short', { off: off(tps) + off(buys), planned: tps.planned + buys.planned })}
      </span>
    );
  }
  const parts = (c: PlanOnBook['takeProfits']) =>
    (['refused', 'missing', 'placing'] as const)
      .filter((state) => c[state] > 0)
      .map((state) => t(`onBook.parts.${state}`, { count: c[state] }))
      .join(t('onBook.separator'));
  const sentences =
    book.status === 'placing'
      ? [t('onBook.placing', { count: off(tps) + off(buys), planned: tps.planned + buys.planned })]
      : [
          off(tps) > 0
            ? t('onBook.takeProfits', { off: off(tps), planned: tps.planned, parts: parts(tps) })
            : null,
          off(buys) > 0 ? t('onBook.buy', { parts: parts(buys) }) : null,
        ].filter(Boolean);
  const refusal = firstRefusal(ladder);
  return (
    <div data-testid="plan-on-book" data-status={book.status}>
      <Notice tone={book.status === 'off_book' ? 'warning' : 'info'}>
        {sentences.join(' ')}
        {refusal ? (
          <>
            <br />
            {t('onBook.refusedBecause', { reason: refusalText(refusal) })}
          </>
        ) : null}
      </Notice>
    </div>
  );
};
