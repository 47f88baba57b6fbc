import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ROUTES } from '../router/route-table';
import { useStore } from '../state/create-store';
import { nativeControlsStore } from '../telegram/native-controls';
import { loadedTelegramSdk } from '../telegram/sdk';
import { trySdk } from '../telegram/sdk-errors';
import { useStepBack } from './back-control';

const TOP_LEVEL = new Set<string>([
  ROUTES.panel.path,
  ROUTES.wallet.path,
  ROUTES.portfolio.path,
  ROUTES.partners.path,
  ROUTES.profile.path,
  ROUTES.login.path,
  ROUTES.register.path,
]);

/**
 * Telegram's back button is shown on nested screens and goes back in history (after closing an open
 * sheet, `useBackLayer`; asking first when a form holds unsaved input, `useStepBack`); inside
 * Telegram it is the only back control (`BackControl` leaves the page's arrow out).
 */
export const useTelegramBackButton = () => {
  const back = useStepBack();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const native = useStore(nativeControlsStore).back;
  useEffect(() => {
    // Native only once device setup has loaded the SDK and mounted the button.
    const backButton = native ? loadedTelegramSdk()?.backButton : undefined;
    if (!backButton) return;
    const nested = !TOP_LEVEL.has(pathname);
    trySdk('back button', () => (nested ? backButton.show() : backButton.hide()));
    if (!nested) return;
    // An open sheet closes first; the screen under it stays.
    const off = trySdk('back button click', () => backButton.onClick(() => void back()));
    return () => off?.();
  }, [native, pathname, back]);
};
