import { Outlet } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runInitialLoad } from '../session/initial-load';
import { type SessionUser, sessionStore } from '../session/session-store';
import { FullScreenLoader, SessionInvalid } from '../shell/full-screen';
import { TabBar } from '../shell/tab-bar';
import { useStore } from '../state/create-store';

/** Loader until the initial data has settled, then the content and (from then on) the tab bar. */
const SignedInLayout = ({ user }: { user: SessionUser }) => {
  const client = useQueryClient();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let active = true;
    void runInitialLoad(client, user).finally(() => {
      if (active) setLoaded(true);
    });
    return () => {
      active = false;
    };
    // The initial load runs once per signed-in user, not on every re-authorisation.
  }, [client, user.uid]);
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

/** Spec §2: the routed view shows only after successful authorisation. */
export const UserLayout = () => {
  const session = useStore(sessionStore);
  if (session.status === 'invalid') return <SessionInvalid />;
  if (session.status === 'pending' || !session.user) return <FullScreenLoader />;
  return <SignedInLayout user={session.user} />;
};
