import { findRecipient } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useActionError } from '../../api/use-action-error';
import { useApiQuery } from '../../api/use-api';
import { useDebouncedValue } from '../../state/use-debounced-value';
import { Avatar } from '../../ui/list-row';
import { Skeleton } from '../../ui/states';

/** Typing has stopped for this long before the UID is looked up (the lookup is 1 call per second). */
const LOOKUP_DELAY_MS = 500;

/** The recipient as the server confirms it: the UID and the username masked (`de…er`). */
export type Recipient = { uid: number; maskedUsername: string | null };

/**
 * Who the typed UID is, asked once the UID is well-formed and typing has stopped: the user sees
 * whom the money goes to — the UID and the masked username — before confirming
 * (docs/wallet.md#internal-transfer).
 */
export const useRecipient = (uidText: string, wellFormed: boolean) => {
  const [settled] = useDebouncedValue(wellFormed ? uidText.trim() : '', LOOKUP_DELAY_MS);
  const current = wellFormed && settled === uidText.trim() && settled !== '';
  const query = useApiQuery(
    findRecipient,
    { query: { uid: settled } },
    { enabled: current, staleTime: 60_000 },
  );
  const missing = current && isApiError(query.error) && query.error.code === 'TRANSFER_RECIPIENT_MISSING';
  return {
    recipient: current ? (query.data ?? null) : null,
    /** Still typing or asking: the transfer waits for the answer. */
    looking: wellFormed && (!current || query.isFetching),
    missing,
    error: current && query.isError ? query.error : null,
  };
};

/** The recipient under the UID field: name and UID, or why there is none. */
export const RecipientCard = ({
  recipient,
  looking,
  error,
}: {
  recipient: Recipient | null;
  looking: boolean;
  error: unknown;
}) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  if (recipient) {
    return (
      <div className="recipient" data-testid="recipient" role="status">
        <Avatar name={recipient.maskedUsername ?? String(recipient.uid)} />
        <div className="recipient__body">
          <div className="recipient__name" data-testid="recipient-name">
            {recipient.maskedUsername ? `@${recipient.maskedUsername}` : t('internal.noUsername')}
          </div>
          <div className="recipient__uid">{t('common.uidValue', { uid: recipient.uid })}</div>
        </div>
      </div>
    );
  }
  if (looking) {
    return (
      <div className="recipient" aria-busy="true">
        <Skeleton height={38} width={38} />
        <div className="recipient__body">
          <Skeleton height={14} width="45%" />
        </div>
      </div>
    );
  }
  // A missing user is said under the field; another failure here, without stopping the transfer.
  if (error && !(isApiError(error) && error.code === 'TRANSFER_RECIPIENT_MISSING')) {
    return <p className="field__hint">{errorText(error)}</p>;
  }
  return null;
};
