import type { Ladder } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
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
  updating,
  waiting,
}: {
  ladder: Ladder | undefined;
  /** A newer preview is on its way: the figures shown are the last ones. */
  updating: boolean;
  /** The form is invalid: no preview is asked for. */
  waiting: boolean;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const notPriced = <span className="muted">{t('editToken.notPriced')}</span>;
  return (
    <Card title={t('editToken.previewTitle')}>
      <div className="preview-figures" data-testid="settings-preview" aria-live="polite">
        <Stat
          label={t('editToken.capitalAtLimit')}
          value={ladder?.capitalAtLimit ? <Usdt value={ladder.capitalAtLimit} /> : notPriced}
        />
        <Stat
          label={t('editToken.coverage')}
          value={ladder?.coverageDropPct ? `−${format.pct(ladder.coverageDropPct)}` : notPriced}
        />
      </div>
      {waiting ? <p className="muted preview-figures__note">{t('editToken.previewPending')}</p> : null}
      {updating && !waiting ? (
        <p className="muted preview-figures__note">{t('editToken.previewUpdating')}</p>
      ) : null}
    </Card>
  );
};
