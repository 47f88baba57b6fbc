import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router';
import { RootLayout } from '../layouts/root-layout';
import { FullScreenLoader } from '../shell/full-screen';
import { ROUTES, type RouteEntry, type TabName } from './route-table';

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

/** `?coin=BTC` of the token and edit-token screens. */
const coinSearch = (search: Record<string, unknown>): { coin?: string } =>
  typeof search.coin === 'string' && /^[A-Za-z0-9]{1,15}$/.test(search.coin)
    ? { coin: search.coin.toUpperCase() }
    : {};

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  notFoundComponent: lazyRouteComponent(() => import('../shell/not-found'), 'NotFound'),
});

// The layouts are lazy too: the user layout brings the shell, the session's initial load and
// its contracts, which guest screens never need.
const guest = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guest',
  component: lazyRouteComponent(() => import('../layouts/guest-layout'), 'GuestLayout'),
});
const user = createRoute({
  getParentRoute: () => rootRoute,
  id: 'user',
  component: lazyRouteComponent(() => import('../layouts/user-layout'), 'UserLayout'),
});

const routeTree = rootRoute.addChildren([
  guest.addChildren([
    createRoute({
      getParentRoute: () => guest,
      path: ROUTES.login.path,
      staticData: meta(ROUTES.login),
      component: lazyRouteComponent(() => import('../screens/guest/login-screen'), 'LoginScreen'),
    }),
    createRoute({
      getParentRoute: () => guest,
      path: ROUTES.register.path,
      staticData: meta(ROUTES.register),
      component: lazyRouteComponent(() => import('../screens/guest/register-screen'), 'RegisterScreen'),
    }),
  ]),
  user.addChildren([
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.panel.path,
      staticData: meta(ROUTES.panel),
      component: lazyRouteComponent(() => import('../screens/panel/panel-screen'), 'PanelScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.pnlStat.path,
      staticData: meta(ROUTES.pnlStat),
      component: lazyRouteComponent(() => import('../screens/panel/pnl-stat-screen'), 'PnlStatScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.portfolio.path,
      staticData: meta(ROUTES.portfolio),
      component: lazyRouteComponent(() => import('../screens/portfolio/portfolio-screen'), 'PortfolioScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.token.path,
      staticData: meta(ROUTES.token),
      validateSearch: coinSearch,
      component: lazyRouteComponent(() => import('../screens/portfolio/token-screen'), 'TokenScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.addToken.path,
      staticData: meta(ROUTES.addToken),
      component: lazyRouteComponent(() => import('../screens/portfolio/add-token-screen'), 'AddTokenScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.editToken.path,
      staticData: meta(ROUTES.editToken),
      validateSearch: coinSearch,
      component: lazyRouteComponent(
        () => import('../screens/portfolio/edit-token-screen'),
        'EditTokenScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.wallet.path,
      staticData: meta(ROUTES.wallet),
      component: lazyRouteComponent(() => import('../screens/wallet/wallet-screen'), 'WalletScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.withdraw.path,
      staticData: meta(ROUTES.withdraw),
      component: lazyRouteComponent(() => import('../screens/wallet/withdraw-screen'), 'WithdrawScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.deposit.path,
      staticData: meta(ROUTES.deposit),
      component: lazyRouteComponent(() => import('../screens/wallet/deposit-screen'), 'DepositScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.internal.path,
      staticData: meta(ROUTES.internal),
      component: lazyRouteComponent(
        () => import('../screens/wallet/internal-transfer-screen'),
        'InternalTransferScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.links.path,
      staticData: meta(ROUTES.links),
      component: lazyRouteComponent(() => import('../screens/profile/links-screen'), 'LinksScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.profile.path,
      staticData: meta(ROUTES.profile),
      component: lazyRouteComponent(() => import('../screens/profile/profile-screen'), 'ProfileScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.profileApiKey.path,
      staticData: meta(ROUTES.profileApiKey),
      component: lazyRouteComponent(() => import('../screens/profile/api-key-screen'), 'ApiKeyScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.partners.path,
      staticData: meta(ROUTES.partners),
      component: lazyRouteComponent(() => import('../screens/partners/partners-screen'), 'PartnersScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.myPartners.path,
      staticData: meta(ROUTES.myPartners),
      component: lazyRouteComponent(
        () => import('../screens/partners/my-partners-screen'),
        'MyPartnersScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.structure.path,
      staticData: meta(ROUTES.structure),
      component: lazyRouteComponent(() => import('../screens/partners/structure-screen'), 'StructureScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.myRewards.path,
      staticData: meta(ROUTES.myRewards),
      component: lazyRouteComponent(() => import('../screens/partners/my-rewards-screen'), 'MyRewardsScreen'),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.referalBonus.path,
      staticData: meta(ROUTES.referalBonus),
      component: lazyRouteComponent(
        () => import('../screens/partners/referral-bonus-screen'),
        'ReferralBonusScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.matchingBonus.path,
      staticData: meta(ROUTES.matchingBonus),
      component: lazyRouteComponent(
        () => import('../screens/partners/matching-bonus-screen'),
        'MatchingBonusScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.networkExpansionBonus.path,
      staticData: meta(ROUTES.networkExpansionBonus),
      component: lazyRouteComponent(
        () => import('../screens/partners/network-expansion-bonus-screen'),
        'NetworkExpansionBonusScreen',
      ),
    }),
    createRoute({
      getParentRoute: () => user,
      path: ROUTES.underDevelopment.path,
      staticData: meta(ROUTES.underDevelopment),
      component: lazyRouteComponent(
        () => import('../screens/under-development-screen'),
        'UnderDevelopmentScreen',
      ),
    }),
  ]),
]);

/** Browser history, no base path (spec §2); screens load lazily and preload on intent. */
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

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
