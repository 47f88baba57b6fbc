import { useTranslation } from 'react-i18next';
import { useCatalogueText } from '../api/use-action-error';
import { hasSupportLink, type LoginFailure } from '../session/login-failure';
import { useStore } from '../state/create-store';
import { Button } from '../ui/button';
import { AlertIcon } from '../ui/svg-icon';
import { closeErrorModal, errorModalStore } from './error-modal-store';
import { useSupportUrl } from './support-url';

/** The installation's support link, once known (`GET /config`). */
const SupportLink = () => {
  const { t } = useTranslation();
  const url = useSupportUrl();
  if (!url) return null;
  return (
    <a
      className="button button--telegram button--block"
      href={url}
      onClick={(event) => {
        event.preventDefault();
        void import('../telegram/links').then(({ openExternal }) => openExternal(url));
      }}
    >
      {t('login.supportLink')}
    </a>
  );
};

/** The modal overlay with the access error text (docs/product.md#screens, §8). */
export const ErrorModal = () => {
  const { t } = useTranslation();
  const catalogueText = useCatalogueText();
  const content = useStore(errorModalStore);
  if (!content) return null;
  const loginText = (failure: LoginFailure) => {
    if (failure === 'sessionInvalid') return t('session.invalid');
    if (failure === 'maintenance') return t('login.failure.maintenance');
    return catalogueText(failure);
  };
  const title = content.kind === 'login' ? t('login.errorTitle') : (content.title ?? t('login.errorTitle'));
  const text = content.kind === 'login' ? loginText(content.failure) : content.text;
  return (
    <div className="modal-overlay" role="presentation">
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="error-modal-title"
        aria-describedby="error-modal-text"
      >
        <div className="modal__icon">
          <AlertIcon />
        </div>
        <h2 id="error-modal-title" className="modal__title">
          {title}
        </h2>
        <p id="error-modal-text" className="modal__text" data-testid="error-text">
          {text}
        </p>
        <div className="modal__actions">
          {content.kind === 'login' && hasSupportLink(content.failure) ? <SupportLink /> : null}
          <Button variant="secondary" block onClick={closeErrorModal}>
            {t('common.close')}
          </Button>
        </div>
      </div>
    </div>
  );
};
