// A Redis database index of the bench's own on a shared Redis server: the highest index that holds no
// key, claimed with a marker key (so a neighbour looking for a free one skips it) and emptied again
// on release. Queues, rate-limit counters and dedup keys of the benchmark's fleet live there.
import { Redis } from 'ioredis';

const CLAIM = 'gridbot:bench-fleet:claim';

export const freeRedisIndex = async (
  serverUrl: string,
): Promise<{ url: string; release: () => Promise<void> }> => {
  for (let index = 15; index >= 1; index--) {
    const url = new URL(serverUrl);
    url.pathname = `/${index}`;
    const client = new Redis(url.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const claimed =
      (await client.dbsize()) === 0 && (await client.set(CLAIM, String(process.pid), 'NX')) === 'OK';
    if (claimed) {
      return {
        url: url.toString(),
        release: async () => {
          await client.flushdb();
          client.disconnect();
        },
      };
    }
    client.disconnect();
  }
  throw new Error('no empty Redis database index between 1 and 15');
};
