import type { Exchange } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import type { FallbackKey } from '../../api/error-text';
import { useActionError } from '../../api/use-action-error';
import { Notice } from '../../ui/notice';

/**
 * A refused portfolio action, in place where it was asked for: the catalogue's text for its code
 * and, where the user can do something about it, the way there (API keys, the coin already added).
 */
export const ActionProblem = ({
  error,
  coin,
  exchange,
  fallback,
}: {
  error: unknown;
  coin?: string;
  /** The coin's exchange (a coin may run on several). */
  exchange?: Exchange | undefined;
  fallback?: FallbackKey;
}) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const code = isApiError(error) ? error.code : null;
  return (
    <div data-problem={code ?? 'unknown'}>
      <Notice tone="warning">
        <p style={{ margin: 0 }}>{errorText(error, fallback)}</p>
        {code === 'API_KEYS_MISSING' ? (
          <Link to="/profile/api-key" className="notice__link">
            {t('addToken.keysLink')}
          </Link>
        ) : null}
        {code === 'COIN_ALREADY_ADDED' && coin ? (
          <Link
            to="/portfolio/show"
            search={{ coin, ...(exchange ? { exchange } : {}) }}
            className="notice__link"
          >
            {t('addToken.openCoin')}
          </Link>
        ) : null}
      </Notice>
    </div>
  );
};
