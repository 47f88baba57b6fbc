// The fleet's floor: two bare Fastify processes (bare-route.ts) behind the fleet's own round-robin
// proxy (scripts/fleet/fleet-proxy.ts), so the real api processes and the floor pay the same hops.
import { type ChildProcess, fork } from 'node:child_process';
import { type FleetProxy, startFleetProxy } from '../../fleet/fleet-proxy';

export type BareFleet = { url: string; proxy: FleetProxy; stop: () => Promise<void> };

const startBareRoute = async (): Promise<{ child: ChildProcess; port: number }> => {
  const child = fork(new URL('./bare-route.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the bare route process exited (${code})`)));
  });
  return { child, port };
};

export const startBareFleet = async (processes = 2): Promise<BareFleet> => {
  const routes = await Promise.all(Array.from({ length: processes }, startBareRoute));
  const proxy = await startFleetProxy(routes.map((r) => r.port));
  return {
    url: proxy.url,
    proxy,
    stop: async () => {
      await proxy.close();
      for (const route of routes) route.child.kill('SIGTERM');
    },
  };
};
