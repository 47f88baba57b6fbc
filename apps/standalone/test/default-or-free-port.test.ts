import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandboxTron } from '@gridbot/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { onDefaultOrFreePort } from '../src/default-or-free-port';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Another program holding a port (taken as a free one, so no fixed port is assumed). */
const holdAPort = async (): Promise<number> => {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
};

const warnings = () => {
  const seen: string[] = [];
  return { seen, logger: { warn: (_: unknown, message: string) => void seen.push(message) } };
};

describe('npm start on a machine where another program holds a default port', () => {
  it('starts the component on a free port instead, and says so', async () => {
    const held = await holdAPort();
    const { seen, logger } = warnings();
    const tron = await onDefaultOrFreePort('sandbox TRON node', held, false, logger, (port) =>
      startSandboxTron({ port, blockIntervalMs: 0 }),
    );
    closers.push(() => tron.close());
    expect(tron.port).not.toBe(held);
    expect(tron.port).toBeGreaterThan(0);
    expect(seen).toEqual([`sandbox TRON node: port ${held} is taken, listening on a free port`]);
    const answer = await fetch(`${tron.url}/wallet/getnowblock`, { method: 'POST' });
    expect(answer.status).toBe(200);
  });

  it('keeps a port the operator set: its failure stops the start', async () => {
    const held = await holdAPort();
    const { seen, logger } = warnings();
    await expect(
      onDefaultOrFreePort('sandbox TRON node', held, true, logger, (port) =>
        startSandboxTron({ port, blockIntervalMs: 0 }),
      ),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(seen).toEqual([]);
  });
});
