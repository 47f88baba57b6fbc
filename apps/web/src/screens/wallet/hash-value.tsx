import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../ui/copy-button';
import { ExternalLink } from '../../ui/external-link';
import { ExternalIcon } from '../../ui/icons';
import { shortened } from './wallet-model';

/**
 * An address or a txid: shortened so both ends can be compared, copyable in full, and opened in
 * the TRON explorer when `href` is given.
 */
export const HashValue = ({
  value,
  href,
  label,
  copyable = true,
}: {
  value: string;
  href?: string;
  label: string;
  /** False for what must never be pasted as a destination (the token contract). */
  copyable?: boolean;
}) => {
  const { t } = useTranslation();
  return (
    <span className="hash-value">
      <span className="mono hash-value__text" title={value}>
        {shortened(value)}
      </span>
      {copyable ? <CopyButton text={value} label={t('wallet.copyWhat', { what: label })} /> : null}
      {href ? (
        <ExternalLink href={href} className="icon-button hash-value__link">
          <ExternalIcon />
          <span className="visually-hidden">{t('wallet.openExplorer')}</span>
        </ExternalLink>
      ) : null}
    </span>
  );
};
