import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '../src/router/route-table';
import { routeTree } from '../src/router/router';

const router = createRouter({
  routeTree,
  history: createMemoryHistory({ initialEntries: ['/'] }),
  context: { queryClient: new QueryClient() },
});

/** The route a path lands on: the deepest match (root and layout come first). */
const landing = (path: string, search: Record<string, unknown> = {}) => {
  const [, , found] = router.getMatchedRoutes(path);
  return { found, last: router.matchRoutes(path, search).at(-1) };
};

describe('the router generated from the route table', () => {
  it.each(ROUTE_LIST.map((entry) => [entry.path, entry] as const))(
    'routes %s to its screen',
    (path, entry) => {
      const { found, last } = landing(path);
      expect(found?.id).toBe(`/${entry.layout}${path === '/' ? '/' : path}`);
      expect(last?.staticData).toMatchObject({
        name: entry.name,
        tab: entry.tab,
        requiresAuth: entry.requiresAuth,
      });
      expect(found?.options.component, path).toBeDefined();
    },
  );

  it('routes nothing else: root, two layouts and the table', () => {
    expect(Object.keys(router.routesById)).toHaveLength(ROUTE_LIST.length + 3);
    expect(landing('/no-such-screen').last?.staticData.name).toBeUndefined();
  });

  it('reads the coin of the token and edit-token screens, and only a coin', () => {
    expect(landing('/portfolio/show', { coin: 'btc' }).last?.search).toEqual({ coin: 'BTC' });
    expect(landing('/portfolio/edit', { coin: 'eth' }).last?.search).toEqual({ coin: 'ETH' });
    expect(landing('/portfolio/edit', { coin: 'not a coin!' }).last?.search).not.toHaveProperty(
      'coin',
      'NOT A COIN!',
    );
  });
});
