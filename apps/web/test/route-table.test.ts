import { describe, expect, it } from 'vitest';
import { ROUTE_LIST, ROUTES } from '../src/router/route-table';

/** docs/product.md#screens: every path with its name. */
const SPEC_ROUTES: ReadonlyArray<[string, string]> = [
  ['/login', 'login'],
  ['/register', 'register'],
  ['/', 'panel'],
  ['/portfolio', 'portfolio'],
  ['/portfolio/show', 'token'],
  ['/portfolio/add', 'add-token'],
  ['/portfolio/edit', 'edit-token'],
  ['/wallet', 'wallet'],
  ['/wallet/withdraw', 'withdraw'],
  ['/wallet/deposit', 'deposit'],
  ['/wallet/internal-transfer', 'internal'],
  ['/links', 'links'],
  ['/profile', 'profile'],
  ['/profile/api-key', 'profile-api-key'],
  ['/partners', 'partners'],
  ['/partners/my-partners', 'my-partners'],
  ['/partners/my-partners/structure', 'structure'],
  ['/partners/my-rewards', 'my-rewards'],
  ['/partners/my-rewards/referal-bonus', 'referal-bonus'],
  ['/partners/my-rewards/matching-bonus', 'matching-bonus'],
  ['/partners/my-rewards/network-expansion-bonus', 'network-expansion-bonus'],
  ['/pnl-stat', 'pnl-stat'],
];

describe('routes (docs/product.md#screens)', () => {
  it('has every path with its name', () => {
    const table = new Map(ROUTE_LIST.map((route) => [route.path, route.name]));
    for (const [path, name] of SPEC_ROUTES) expect(table.get(path), path).toBe(name);
  });

  it('puts login and register in the guest layout and the rest in the user layout', () => {
    for (const route of ROUTE_LIST) {
      const guest = route.name === 'login' || route.name === 'register';
      expect(route.layout, route.path).toBe(guest ? 'guest' : 'user');
      expect(route.requiresAuth, route.path).toBe(!guest);
    }
  });

  it('keeps the under-development section hidden', () => {
    expect(ROUTES.underDevelopment.hidden).toBe(true);
    expect(ROUTE_LIST.filter((route) => route.hidden)).toHaveLength(1);
  });
});
