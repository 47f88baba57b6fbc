import { Outlet } from '@tanstack/react-router';
import { ErrorModal } from '../shell/error-modal';
import { useTelegramBackButton } from '../shell/telegram-back-button';
import { Toasts } from '../shell/toasts';

export const RootLayout = () => {
  useTelegramBackButton();
  return (
    <>
      <Outlet />
      <Toasts />
      <ErrorModal />
    </>
  );
};
