/**
 * Every screen of docs/product.md#screens with its path, name and tab. `requiresAuth` is informative only:
 * navigation is never blocked on it, the server's 401 is the enforcement.
 */
export type TabName = 'wallet' | 'portfolio' | 'panel' | 'partners' | 'profile';

export type RouteEntry = {
  readonly path: string;
  readonly name: string;
  readonly layout: 'guest' | 'user';
  readonly requiresAuth: boolean;
  /** The tab shown as current on this screen (none for guest screens). */
  readonly tab: TabName | null;
  /** Exists but is never linked or shown (the under-development section). */
  readonly hidden?: boolean;
};

const user = <P extends string, N extends string>(path: P, name: N, tab: TabName) =>
  ({ path, name, layout: 'user', requiresAuth: true, tab }) as const;

export const ROUTES = {
  login: { path: '/login', name: 'login', layout: 'guest', requiresAuth: false, tab: null },
  register: { path: '/register', name: 'register', layout: 'guest', requiresAuth: false, tab: null },
  panel: user('/', 'panel', 'panel'),
  portfolio: user('/portfolio', 'portfolio', 'portfolio'),
  token: user('/portfolio/show', 'token', 'portfolio'),
  addToken: user('/portfolio/add', 'add-token', 'portfolio'),
  editToken: user('/portfolio/edit', 'edit-token', 'portfolio'),
  wallet: user('/wallet', 'wallet', 'wallet'),
  withdraw: user('/wallet/withdraw', 'withdraw', 'wallet'),
  deposit: user('/wallet/deposit', 'deposit', 'wallet'),
  internal: user('/wallet/internal-transfer', 'internal', 'wallet'),
  links: user('/links', 'links', 'profile'),
  profile: user('/profile', 'profile', 'profile'),
  profileApiKey: user('/profile/api-key', 'profile-api-key', 'profile'),
  partners: user('/partners', 'partners', 'partners'),
  myPartners: user('/partners/my-partners', 'my-partners', 'partners'),
  structure: user('/partners/my-partners/structure', 'structure', 'partners'),
  myRewards: user('/partners/my-rewards', 'my-rewards', 'partners'),
  referalBonus: user('/partners/my-rewards/referal-bonus', 'referal-bonus', 'partners'),
  matchingBonus: user('/partners/my-rewards/matching-bonus', 'matching-bonus', 'partners'),
  networkExpansionBonus: user(
    '/partners/my-rewards/network-expansion-bonus',
    'network-expansion-bonus',
    'partners',
  ),
  pnlStat: user('/pnl-stat', 'pnl-stat', 'panel'),
  underDevelopment: { ...user('/under-development', 'under-development', 'panel'), hidden: true },
} as const satisfies Record<string, RouteEntry>;

export type RouteKey = keyof typeof ROUTES;
export const ROUTE_LIST: readonly RouteEntry[] = Object.values(ROUTES);
