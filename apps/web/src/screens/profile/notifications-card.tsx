import { type NotificationSettings, updateNotifications } from '@gridbot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { callApi, guardWindowOf } from '../../api/call-api';
import { useActionError } from '../../api/use-action-error';
import { invalidateAfter } from '../../api/use-api';
import { showToast } from '../../shell/toast-store';
import { type CoalescedUpdates, createCoalescedUpdates } from '../../state/coalesced-updates';
import { Card } from '../../ui/screen';
import { Switch } from '../../ui/switch';

const KINDS = ['enabled', 'fills', 'dailyReport', 'tradingAlerts', 'wallet', 'bonuses', 'license'] as const;
type Changes = Partial<NotificationSettings>;

/** `changes` without the keys `done` settled (a newer value of a key stays). */
const without = (changes: Changes, done: Changes): Changes =>
  Object.fromEntries(
    Object.entries(changes).filter(([key, value]) => done[key as keyof Changes] !== value),
  ) as Changes;

/**
 * What the Telegram bot sends: a master switch and one per kind. Each switch shows its new state
 * at once; the changes go out one request at a time within the call's limit, quick toggles
 * together (`createCoalescedUpdates`), so none is lost to "too many requests".
 */
export const NotificationsCard = ({ settings }: { settings: NotificationSettings }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const client = useQueryClient();
  const [saved, setSaved] = useState(settings);
  const [changes, setChanges] = useState<Changes>({});
  useEffect(() => setSaved(settings), [settings]);
  // The latest callbacks, for updates that outlive a render.
  const latest = useRef({ errorText, client });
  latest.current = { errorText, client };
  // One queue for the card's life; what it still holds when the screen closes is sent anyway.
  const updates = useRef<CoalescedUpdates<NotificationSettings> | null>(null);
  if (!updates.current) {
    updates.current = createCoalescedUpdates<NotificationSettings>({
      send: (patch) => callApi(updateNotifications, { body: patch }),
      windowMs: guardWindowOf(updateNotifications),
      isRetryable: (error) => isApiError(error) && error.status === 429,
      onSaved: (next, patch) => {
        setSaved(next);
        setChanges((current) => without(current, patch));
        void invalidateAfter(latest.current.client, updateNotifications);
      },
      onFailed: (patch, error) => {
        setChanges((current) => without(current, patch));
        showToast(latest.current.errorText(error, 'tryLater'), 'error');
      },
    });
  }
  const current = { ...saved, ...changes };
  const toggle = (kind: (typeof KINDS)[number], value: boolean) => {
    setChanges((now) => ({ ...now, [kind]: value }));
    updates.current?.push({ [kind]: value });
  };
  return (
    <Card title={t('profile.notifications')}>
      {KINDS.filter((kind) => kind === 'enabled' || current.enabled).map((kind) => (
        <div key={kind} className="switch-row key-value">
          <span>{t(`profile.notificationKinds.${kind}`)}</span>
          <Switch
            label={t(`profile.notificationKinds.${kind}`)}
            checked={current[kind]}
            onChange={(value) => toggle(kind, value)}
          />
        </div>
      ))}
    </Card>
  );
};
