import type { Ladder, SettingsWarning } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useCatalogueText } from '../../api/use-action-error';
import { signOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { Usdt } from '../../ui/money';
import { Card } from '../../ui/screen';
import { Stat } from '../../ui/stat';

/**
 * What the previewed settings would tie up and how far down they reach (docs/grid.md#editing-settings):
 * the ladder's capital at the purchase limit and the price drop its deepest buy covers.
 */
export const SettingsPreview = ({
  ladder,
  warnings,
  updating,
  waiting,
}: {
  ladder: Ladder | undefined;
  /** What the exchange would refuse with these settings (a save is refused with the same text). */
  warnings: readonly SettingsWarning[];
  /** A newer preview is on its way: the figures shown are the last ones. */
  updating: boolean;
  /** The form is invalid: no preview is asked for. */
  waiting: boolean;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const catalogueText = useCatalogueText();
  const notPriced = <span className="muted">{t('editToken.notPriced')}</span>;
  const coverage = ladder?.coverageDropPct ?? null;
  // Below zero when every lot is bought and the price is already under the deepest one.
  const coverageText =
    coverage === null ? (
      notPriced
    ) : signOf(coverage) === 'positive' ? (
      `−${format.pct(coverage)}`
    ) : (
      <>
        {t('editToken.coverageNone')}
        <span className="stat__note">{t('editToken.belowDeepest')}</span>
      </>
    );
  return (
    <Card title={t('editToken.previewTitle')}>
      <div className="preview-figures" data-testid="settings-preview" aria-live="polite">
        <Stat
          label={t('editToken.capitalAtLimit')}
          value={ladder?.capitalAtLimit ? <Usdt value={ladder.capitalAtLimit} /> : notPriced}
        />
        <Stat label={t('editToken.coverage')} value={coverageText} />
      </div>
      {warnings.map((warning) => (
        <p key={warning.code} className="field__error preview-figures__note" role="alert">
          {catalogueText(warning.code)}{' '}
          {t('editToken.priceLimitLevel', {
            lot: warning.lotNumber,
            step: format.pct(warning.stepPct),
            max: format.pct(warning.maxStepPct),
          })}
        </p>
      ))}
      {waiting ? <p className="muted preview-figures__note">{t('editToken.previewPending')}</p> : null}
      {updating && !waiting ? (
        <p className="muted preview-figures__note">{t('editToken.previewUpdating')}</p>
      ) : null}
    </Card>
  );
};
