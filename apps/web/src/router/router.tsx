import type { Exchange } from '@gridbot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router';
import { isExchange } from '../format/exchange-name';
import { RootLayout } from '../layouts/root-layout';
import { FullScreenLoader } from '../shell/full-screen';
import { ROUTES, type RouteEntry, type RouteKey, type TabName } from './route-table';
import { SCREENS } from './screens';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    name?: string;
    requiresAuth?: boolean;
    tab?: TabName | null;
    hidden?: boolean;
  }
}

const meta = (entry: RouteEntry) => ({
  name: entry.name,
  requiresAuth: entry.requiresAuth,
  tab: entry.tab,
  ...(entry.hidden ? { hidden: true } : {}),
});

/** `?coin=BTC&exchange=bybit` of the token and edit-token screens (a coin may run on several exchanges). */
const coinSearch = (search: Record<string, unknown>): { coin?: string; exchange?: Exchange } => ({
  ...(typeof search.coin === 'string' && /^[A-Za-z0-9]{1,15}$/.test(search.coin)
    ? { coin: search.coin.toUpperCase() }
    : {}),
  ...(isExchange(search.exchange) ? { exchange: search.exchange } : {}),
});

/** Search parameters a screen reads; every other screen takes none. */
const SEARCH = { token: coinSearch, editToken: coinSearch } as const;

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  notFoundComponent: lazyRouteComponent(() => import('../shell/not-found'), 'NotFound'),
});

// The layouts are lazy too: the user layout brings the shell, the session's initial load and
// its contracts, which guest screens never need.
const guestLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guest',
  component: lazyRouteComponent(() => import('../layouts/guest-layout'), 'GuestLayout'),
});
const userLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'user',
  component: lazyRouteComponent(() => import('../layouts/user-layout'), 'UserLayout'),
});

type Layout = RouteEntry['layout'];
type LayoutOf<K extends RouteKey> = (typeof ROUTES)[K]['layout'];
type LayoutRoute<L extends Layout> = L extends 'guest' ? typeof guestLayout : typeof userLayout;
type SearchOf<K extends RouteKey> = K extends keyof typeof SEARCH ? (typeof SEARCH)[K] : undefined;
type KeysIn<L extends Layout> = { [K in RouteKey]: LayoutOf<K> extends L ? K : never }[RouteKey];

const layoutRoute = <L extends Layout>(layout: L) =>
  (layout === 'guest' ? guestLayout : userLayout) as LayoutRoute<L>;
const searchOf = <K extends RouteKey>(key: K) =>
  (key in SEARCH ? SEARCH[key as keyof typeof SEARCH] : undefined) as SearchOf<K>;

/**
 * The route of one route-table entry: its path under its layout, its lazy screen, its search
 * parameters. Generic in the key, so every route keeps its literal path for typed links.
 */
const screenRoute = <K extends RouteKey>(key: K) =>
  createRoute({
    getParentRoute: () => layoutRoute<LayoutOf<K>>(ROUTES[key].layout),
    path: ROUTES[key].path as (typeof ROUTES)[K]['path'],
    staticData: meta(ROUTES[key]),
    validateSearch: searchOf(key),
    component: SCREENS[key],
  });

type ScreenRoutes<L extends Layout> = { [K in KeysIn<L>]: ReturnType<typeof screenRoute<K>> };

const screenRoutesIn = <L extends Layout>(layout: L) =>
  Object.fromEntries(
    (Object.keys(ROUTES) as RouteKey[])
      .filter((key) => ROUTES[key].layout === layout)
      .map((key) => [key, screenRoute(key)]),
  ) as unknown as ScreenRoutes<L>;

/** Every entry of ROUTES, generated: nothing here names a path or a screen. */
export const routeTree = rootRoute.addChildren({
  guest: guestLayout.addChildren(screenRoutesIn('guest')),
  user: userLayout.addChildren(screenRoutesIn('user')),
});

/** Browser history, no base path (docs/product.md#screens); screens load lazily and preload on intent. */
export const createAppRouter = (queryClient: QueryClient) =>
  createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPendingComponent: FullScreenLoader,
    defaultPendingMs: 300,
    scrollRestoration: true,
  });

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Starts loading the code of the screen at `pathname` and of its layout before the first render,
 * while launch data and sign-in are on their way (docs/performance.md#web).
 */
export const preloadScreenCode = (router: AppRouter, pathname: string) => {
  const [routes] = router.getMatchedRoutes(pathname);
  for (const route of routes) void router.loadRouteChunk(route)?.catch(() => undefined);
};

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
