import type { LoginFailure } from '../session/login-failure';
import { createStore } from '../state/create-store';

export type ErrorModalContent =
  | { kind: 'login'; failure: LoginFailure }
  | { kind: 'text'; title?: string; text: string };

/** The modal overlay with the access error text (docs/product.md#screens). */
export const errorModalStore = createStore<ErrorModalContent | null>(null);

export const showErrorModal = (content: ErrorModalContent) => errorModalStore.set(content);
export const closeErrorModal = () => errorModalStore.set(null);
