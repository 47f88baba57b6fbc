import { useStore } from '../state/create-store';
import { TOAST_ANIMATION_MS, TOAST_WIDTH_PX, toastStore } from './toast-store';

export const Toasts = () => {
  const toasts = useStore(toastStore);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role="status"
          className={`toast toast--${toast.tone}${toast.leaving ? ' toast--leaving' : ''}`}
          style={{ width: TOAST_WIDTH_PX, animationDuration: `${TOAST_ANIMATION_MS}ms` }}
        >
          <span className="toast__dot" aria-hidden="true" />
          {toast.text}
        </div>
      ))}
    </div>
  );
};
