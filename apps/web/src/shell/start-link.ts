import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { readLaunchContext } from '../telegram/launch';
import { startTargetOf } from '../telegram/start-param';

const OPENED_KEY = 'gridbot/start-link-opened';

/**
 * A `startapp` deep link opens its screen once the user layout has loaded, once per launch: a
 * reload of the same launch (same signed launch data) stays where the user is. The screen is pushed
 * over the panel, so Back returns to it.
 */
export const useStartLink = (loaded: boolean) => {
  const router = useRouter();
  useEffect(() => {
    if (!loaded) return;
    const launch = readLaunchContext();
    const target = startTargetOf(launch?.startParam);
    if (!launch || !target) return;
    const launchId = new URLSearchParams(launch.rawInitData).get('hash') ?? launch.rawInitData;
    try {
      if (sessionStorage.getItem(OPENED_KEY) === launchId) return;
      sessionStorage.setItem(OPENED_KEY, launchId);
    } catch {
      // Without storage the link still opens; a reload would open it again.
    }
    router.history.push(target);
  }, [loaded, router]);
};
