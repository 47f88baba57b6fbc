import { logoutAll } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { endSession } from '../../session/sign-in';
import { confirmAction } from '../../telegram/confirm';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';

/**
 * "Sign out on all devices" (docs/security.md#sessions): after a confirmation every session of the
 * account ends, this one too, and the app shows the session-ended state.
 */
export const SessionsCard = () => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const end = useApiMutation(logoutAll, {
    onSuccess: () => {
      feedback('success');
      endSession();
    },
    onError: () => feedback('error'),
  });
  const ask = async () => {
    end.reset();
    const ok = await confirmAction({
      title: t('profile.logoutAll'),
      message: t('profile.logoutAllConfirm'),
      confirmText: t('profile.logoutAllButton'),
      destructive: true,
    });
    if (ok) end.mutate({});
  };
  return (
    <Card title={t('profile.sessions')}>
      <div className="license-actions">
        <p className="license-hint">{t('profile.logoutAllHint')}</p>
        <Button
          variant="danger"
          block
          busy={end.isPending}
          onClick={() => void ask()}
          data-testid="logout-all"
        >
          {t('profile.logoutAll')}
        </Button>
        {end.isError ? <Notice tone="warning">{errorText(end.error)}</Notice> : null}
      </div>
    </Card>
  );
};
