import type { PortfolioCoin } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { isCatalogueCode } from '../../api/error-text';
import { useCatalogueText } from '../../api/use-action-error';
import { useFormat } from '../../format/use-format';
import { Notice } from '../../ui/notice';

type Status = Pick<PortfolioCoin, 'running' | 'dryReason' | 'lastError'> &
  Partial<Pick<PortfolioCoin, 'marketClosed' | 'symbol'>>;

/**
 * The sentence on drying: a paused coin does nothing at all, not even sell, so drying only says
 * what happens once it is started again (docs/grid.md#coin-states).
 */
export const dryNoteOf = (
  coin: Pick<Status, 'running' | 'dryReason'>,
): { full: DryNoteKey; short: DryNoteKey } | null => {
  if (!coin.dryReason) return null;
  if (!coin.running) return { full: 'coinStatus.pausedDry', short: 'coinStatus.pausedDryShort' };
  return { full: `coinStatus.dry.${coin.dryReason}`, short: `coinStatus.short.${coin.dryReason}` };
};
type DryNoteKey =
  | 'coinStatus.pausedDry'
  | 'coinStatus.pausedDryShort'
  | `coinStatus.${'dry' | 'short'}.${NonNullable<Status['dryReason']>}`;

/**
 * Why a coin does not buy, in a sentence (docs/grid.md#coin-states): the exchange not trading its
 * market (docs/grid.md#markets-change), the reason it is dry when the user did not just dry this
 * coin, and the exchange's or the engine's last refusal with its time.
 */
export const CoinStatusNote = ({ coin, compact = false }: { coin: Status; compact?: boolean }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const catalogue = useCatalogueText();
  const { lastError, marketClosed } = coin;
  const closedText = marketClosed
    ? t('coinStatus.marketClosed', {
        symbol: coin.symbol ?? '',
        status: marketClosed.status,
        time: format.dateTime(marketClosed.since),
      })
    : null;
  const dryNote = dryNoteOf(coin);
  const dryText = dryNote ? t(dryNote.full) : null;
  const errorText = lastError
    ? t('coinStatus.lastError', {
        message: isCatalogueCode(lastError.code) ? catalogue(lastError.code) : lastError.message,
        time: format.dateTime(lastError.at),
      })
    : null;
  if (!dryText && !errorText && !closedText) return null;
  if (compact) {
    // In a list row: the refusal's sentence, else the reason in a few words.
    if (errorText) return <span className="negative">{errorText}</span>;
    if (closedText) return <span>{t('coinStatus.marketClosedShort')}</span>;
    return <span>{dryNote ? t(dryNote.short) : null}</span>;
  }
  return (
    <>
      {closedText ? <Notice tone="warning">{closedText}</Notice> : null}
      {errorText ? <Notice tone="warning">{errorText}</Notice> : null}
      {dryText ? <Notice>{dryText}</Notice> : null}
    </>
  );
};
