import { lazyRouteComponent } from '@tanstack/react-router';
import type { RouteKey } from './route-table';

/**
 * The screen of every route-table entry, each loaded on first visit (its own chunk). The router is
 * generated from ROUTES and this map; the compiler refuses an entry without a screen.
 */
export const SCREENS = {
  login: lazyRouteComponent(() => import('../screens/guest/login-screen'), 'LoginScreen'),
  register: lazyRouteComponent(() => import('../screens/guest/register-screen'), 'RegisterScreen'),
  panel: lazyRouteComponent(() => import('../screens/panel/panel-screen'), 'PanelScreen'),
  pnlStat: lazyRouteComponent(() => import('../screens/panel/pnl-stat-screen'), 'PnlStatScreen'),
  portfolio: lazyRouteComponent(() => import('../screens/portfolio/portfolio-screen'), 'PortfolioScreen'),
  token: lazyRouteComponent(() => import('../screens/portfolio/token-screen'), 'TokenScreen'),
  addToken: lazyRouteComponent(() => import('../screens/portfolio/add-token-screen'), 'AddTokenScreen'),
  editToken: lazyRouteComponent(() => import('../screens/portfolio/edit-token-screen'), 'EditTokenScreen'),
  wallet: lazyRouteComponent(() => import('../screens/wallet/wallet-screen'), 'WalletScreen'),
  withdraw: lazyRouteComponent(() => import('../screens/wallet/withdraw-screen'), 'WithdrawScreen'),
  deposit: lazyRouteComponent(() => import('../screens/wallet/deposit-screen'), 'DepositScreen'),
  internal: lazyRouteComponent(
    () => import('../screens/wallet/internal-transfer-screen'),
    'InternalTransferScreen',
  ),
  links: lazyRouteComponent(() => import('../screens/profile/links-screen'), 'LinksScreen'),
  profile: lazyRouteComponent(() => import('../screens/profile/profile-screen'), 'ProfileScreen'),
  profileApiKey: lazyRouteComponent(() => import('../screens/profile/api-key-screen'), 'ApiKeyScreen'),
  partners: lazyRouteComponent(() => import('../screens/partners/partners-screen'), 'PartnersScreen'),
  myPartners: lazyRouteComponent(() => import('../screens/partners/my-partners-screen'), 'MyPartnersScreen'),
  structure: lazyRouteComponent(() => import('../screens/partners/structure-screen'), 'StructureScreen'),
  myRewards: lazyRouteComponent(() => import('../screens/partners/my-rewards-screen'), 'MyRewardsScreen'),
  referalBonus: lazyRouteComponent(
    () => import('../screens/partners/referral-bonus-screen'),
    'ReferralBonusScreen',
  ),
  matchingBonus: lazyRouteComponent(
    () => import('../screens/partners/matching-bonus-screen'),
    'MatchingBonusScreen',
  ),
  networkExpansionBonus: lazyRouteComponent(
    () => import('../screens/partners/network-expansion-bonus-screen'),
    'NetworkExpansionBonusScreen',
  ),
  underDevelopment: lazyRouteComponent(
    () => import('../screens/under-development-screen'),
    'UnderDevelopmentScreen',
  ),
} as const satisfies Record<RouteKey, unknown>;
