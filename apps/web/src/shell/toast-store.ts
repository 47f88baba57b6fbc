import { createStore } from '../state/create-store';
import { feedback } from '../telegram/feedback';

/** docs/product.md#limits toast defaults. */
export const TOAST_ANIMATION_MS = 300;
export const TOAST_DURATION_MS = 3000;
export const TOAST_WIDTH_PX = 300;

export type ToastTone = 'success' | 'error' | 'info';
export type Toast = { id: number; text: string; tone: ToastTone; leaving: boolean };

export const toastStore = createStore<Toast[]>([]);

let nextId = 1;

const dismiss = (id: number) => {
  toastStore.set((toasts) => toasts.map((toast) => (toast.id === id ? { ...toast, leaving: true } : toast)));
  setTimeout(() => toastStore.set((toasts) => toasts.filter((toast) => toast.id !== id)), TOAST_ANIMATION_MS);
};

/** Shows a notice for an event (trading started, language saved …) for 3 s; success and error are felt too. */
export const showToast = (text: string, tone: ToastTone = 'info') => {
  const id = nextId++;
  if (tone !== 'info') feedback(tone);
  toastStore.set((toasts) => [...toasts.slice(-2), { id, text, tone, leaving: false }]);
  setTimeout(() => dismiss(id), TOAST_DURATION_MS);
};
