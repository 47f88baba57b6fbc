/**
 * `startapp` deep links (t.me/<bot>/<app>?startapp=<param>) → the screen they open
 * (docs/decisions.md#telegram-native-mini-app-issue-10). Telegram allows 1–512 characters of
 * A–Z, a–z, 0–9, _ and -; `ref_<code>` is the referral of sign-in and opens nothing.
 */
const SCREENS: Readonly<Record<string, string>> = {
  panel: '/',
  portfolio: '/portfolio',
  wallet: '/wallet',
  deposit: '/wallet/deposit',
  withdraw: '/wallet/withdraw',
  transfer: '/wallet/internal-transfer',
  partners: '/partners',
  rewards: '/partners/my-rewards',
  profile: '/profile',
  api_key: '/profile/api-key',
  links: '/links',
  pnl: '/pnl-stat',
};

/** A coin symbol as the portfolio names it (BTC, 1INCH): upper-case letters and digits. */
const COIN = /^coin_([A-Za-z0-9]{1,15})$/;

/** The in-app URL a start parameter opens, or null for none (unknown, empty, a referral). */
export const startTargetOf = (param: string | null | undefined): string | null => {
  if (!param) return null;
  const coin = COIN.exec(param);
  if (coin?.[1]) return `/portfolio/show?coin=${coin[1].toUpperCase()}`;
  return Object.hasOwn(SCREENS, param) ? (SCREENS[param] ?? null) : null;
};
