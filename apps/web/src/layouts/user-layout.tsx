import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { type SessionUser, sessionStore } from '../session/session-store';
import { isInitialLoadSettled, takeInitialLoad } from '../session/start-initial-load';
import { SessionInvalid } from '../shell/brand';
import { FullScreenLoader } from '../shell/full-screen';
import { SessionEnded } from '../shell/session-ended';
import { SessionUnreachable } from '../shell/session-unreachable';
import { useStartLink } from '../shell/start-link';
import { TabBar } from '../shell/tab-bar';
import { useTelegramBackButton } from '../shell/telegram-back-button';
import { useStore } from '../state/create-store';

/**
 * docs/performance.md#web: the first screen is interactive once the initial data has settled and
 * the routed screen's code has loaded (so it renders with its data, beside a working tab bar).
 * Marked once per page, as `performance.mark('first-screen')` and `<html data-first-screen>`.
 */
const useFirstScreenMark = (loaded: boolean) => {
  const routerIdle = useRouterState({ select: (state) => state.status === 'idle' });
  useEffect(() => {
    if (!loaded || !routerIdle || document.documentElement.dataset.firstScreen) return;
    performance.mark('first-screen');
    document.documentElement.dataset.firstScreen = 'ready';
  }, [loaded, routerIdle]);
};

/** Loader until the initial data has settled, then the content and (from then on) the tab bar. */
const SignedInLayout = ({ user }: { user: SessionUser }) => {
  const client = useQueryClient();
  const [loaded, setLoaded] = useState(() => isInitialLoadSettled(client, user));
  // The initial load runs once per signed-in user (the layout is keyed by uid), not on every
  // re-authorisation that refreshes the user object.
  const firstUser = useRef(user);
  useEffect(() => {
    let active = true;
    void takeInitialLoad(client, firstUser.current).finally(() => {
      if (active) setLoaded(true);
    });
    return () => {
      active = false;
    };
  }, [client]);
  useStartLink(loaded);
  useFirstScreenMark(loaded);
  if (!loaded) return <FullScreenLoader />;
  return (
    <>
      <main className="content">
        <Outlet />
      </main>
      <TabBar />
    </>
  );
};

/** docs/product.md#screens: the routed view shows only after successful authorisation. */
export const UserLayout = () => {
  useTelegramBackButton();
  const session = useStore(sessionStore);
  if (session.status === 'ended') return <SessionEnded />;
  if (session.status === 'invalid') return <SessionInvalid />;
  if (session.status === 'unreachable') return <SessionUnreachable />;
  if (session.status === 'pending' || !session.user) return <FullScreenLoader />;
  return <SignedInLayout key={session.user.uid} user={session.user} />;
};
