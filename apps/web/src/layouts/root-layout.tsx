import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ErrorModal } from '../shell/error-modal';
import { Toasts } from '../shell/toasts';
import { markRendered } from '../telegram/first-render';

export const RootLayout = () => {
  // Telegram's ready() waits for this first commit (docs/decisions.md#telegram-native-mini-app-issue-10).
  useEffect(() => markRendered(), []);
  return (
    <>
      <Outlet />
      <Toasts />
      <ErrorModal />
    </>
  );
};
