import { useRouter, useRouterState } from '@tanstack/react-router';
import { backButton } from '@tma.js/sdk-react';
import { useEffect } from 'react';
import { ROUTES } from '../router/route-table';
import { trySdk } from '../telegram/sdk-errors';

const TOP_LEVEL = new Set<string>([
  ROUTES.panel.path,
  ROUTES.wallet.path,
  ROUTES.portfolio.path,
  ROUTES.partners.path,
  ROUTES.profile.path,
  ROUTES.login.path,
  ROUTES.register.path,
]);

/** Telegram's back button is shown on nested screens and goes back in history. */
export const useTelegramBackButton = () => {
  const router = useRouter();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  useEffect(() => {
    if (!backButton.isMounted()) return;
    const nested = !TOP_LEVEL.has(pathname);
    trySdk('back button', () => (nested ? backButton.show() : backButton.hide()));
    if (!nested) return;
    const off = trySdk('back button click', () => backButton.onClick(() => router.history.back()));
    return () => off?.();
  }, [pathname, router]);
};
