import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { runInitialLoad } from '../session/initial-load';
import { type SessionUser, sessionStore } from '../session/session-store';
import { SessionInvalid } from '../shell/brand';
import { FullScreenLoader } from '../shell/full-screen';
import { useStartLink } from '../shell/start-link';
import { TabBar } from '../shell/tab-bar';
import { useTelegramBackButton } from '../shell/telegram-back-button';
import { useStore } from '../state/create-store';

/** Loader until the initial data has settled, then the content and (from then on) the tab bar. */
const SignedInLayout = ({ user }: { user: SessionUser }) => {
  const client = useQueryClient();
  const [loaded, setLoaded] = useState(false);
  // The initial load runs once per signed-in user (the layout is keyed by uid), not on every
  // re-authorisation that refreshes the user object.
  const firstUser = useRef(user);
  useEffect(() => {
    let active = true;
    void runInitialLoad(client, firstUser.current).finally(() => {
      if (active) setLoaded(true);
    });
    return () => {
      active = false;
    };
  }, [client]);
  useStartLink(loaded);
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
  if (session.status === 'invalid') return <SessionInvalid />;
  if (session.status === 'pending' || !session.user) return <FullScreenLoader />;
  return <SignedInLayout key={session.user.uid} user={session.user} />;
};
