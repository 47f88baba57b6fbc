import { Outlet } from '@tanstack/react-router';

/** Login and register: no session needed, no tab bar. */
export const GuestLayout = () => (
  <main className="fullscreen-center">
    <Outlet />
  </main>
);
