import { connect, createServer, type Server, type Socket } from 'node:net';

export type TcpProxy = {
  /** host:port the proxy listens on. */
  port: number;
  /** Refuses new connections and cuts the open ones: the target looks unreachable. */
  cut: () => Promise<void>;
  /** Listens again on the same port. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * A TCP pass-through to `target` that a test can cut and restore: a database server going away and
 * coming back, seen from the client exactly as on a real network (refused connections, reset sockets).
 */
export const startTcpProxy = async (target: { host: string; port: number }): Promise<TcpProxy> => {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (address && typeof address === 'object') port = address.port;
        server = next;
        resolve();
      });
    });
  const cut = async () => {
    const closing = server;
    server = undefined;
    for (const s of sockets) s.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
};
