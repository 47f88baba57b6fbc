import { useStore } from '../state/create-store';
import { type SessionUser, sessionStore } from './session-store';

/** The signed-in user; only called below the user layout, which renders after sign-in. */
export const useSessionUser = (): SessionUser => {
  const { user } = useStore(sessionStore);
  if (!user) throw new Error('useSessionUser outside the signed-in layout');
  return user;
};
