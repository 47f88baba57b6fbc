import { Outlet } from '@tanstack/react-router';
import { ErrorModal } from '../shell/error-modal';
import { Toasts } from '../shell/toasts';

export const RootLayout = () => (
  <>
    <Outlet />
    <Toasts />
    <ErrorModal />
  </>
);
