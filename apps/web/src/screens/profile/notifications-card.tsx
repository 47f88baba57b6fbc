import { type NotificationSettings, updateNotifications } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { showToast } from '../../shell/toast-store';
import { Card } from '../../ui/screen';
import { Switch } from '../../ui/switch';

const KINDS = ['enabled', 'fills', 'dailyReport', 'tradingAlerts', 'wallet', 'bonuses', 'license'] as const;

/** What the Telegram bot sends: a master switch and one per kind. */
export const NotificationsCard = ({ settings }: { settings: NotificationSettings }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const update = useApiMutation(updateNotifications, {
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
  const current = { ...settings, ...(update.isPending ? update.variables?.body : {}) };
  return (
    <Card title={t('profile.notifications')}>
      {KINDS.filter((kind) => kind === 'enabled' || current.enabled).map((kind) => (
        <div key={kind} className="switch-row key-value">
          <span>{t(`profile.notificationKinds.${kind}`)}</span>
          <Switch
            label={t(`profile.notificationKinds.${kind}`)}
            checked={current[kind]}
            disabled={update.isPending}
            onChange={(value) => update.mutate({ body: { [kind]: value } })}
          />
        </div>
      ))}
    </Card>
  );
};
