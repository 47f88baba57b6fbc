import { binance } from '@gridbot/venues';
import { type ConnectionLimit, createMemoryConnectionLimiter } from './connection-limiter';
import {
  createUserDataStreams,
  type UserDataStreams,
  type UserDataStreamsOptions,
} from './user-data-streams';

/**
 * The connection attempts the engine allows itself: 80 % of Binance's 300 per 5 minutes per IP
 * (docs/venues/binance.md#user-data-stream), over a window 30 s longer than Binance's. The venue
 * counts an attempt when the handshake reaches it, the limiter when it grants it: the time in
 * between varies (network, a busy event loop), so attempts granted just inside our window may land
 * closer together at the venue. The rest is left for a process whose count was lost (Redis
 * flushed) and for the operator's own tools on the same IP.
 */
export const USER_STREAM_CONNECTION_BUDGET: ConnectionLimit = {
  attempts: Math.floor(binance.userStream.connectionsPerWindow * 0.8),
  windowMs: binance.userStream.connectionWindowMs + 30_000,
};

const shared = new Map<string, UserDataStreams>();

/**
 * A process's user data connections to one venue URL when nobody configured them (a client built
 * without `userDataStreams`: the CLIs, the embedded mode's defaults): every account of the process
 * shares them, attempts paced in memory.
 */
export const sharedUserDataStreams = (
  url: string,
  options: Omit<UserDataStreamsOptions, 'url' | 'limiter'> = {},
): UserDataStreams => {
  let streams = shared.get(url);
  if (!streams) {
    streams = createUserDataStreams({
      ...options,
      url,
      limiter: createMemoryConnectionLimiter(USER_STREAM_CONNECTION_BUDGET),
    });
    shared.set(url, streams);
  }
  return streams;
};
