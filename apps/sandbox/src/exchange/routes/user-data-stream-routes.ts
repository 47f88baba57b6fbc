import type { FastifyInstance, FastifyRequest } from 'fastify';
import { binanceErrors } from '../binance-error';
import type { SandboxExchange } from '../sandbox-exchange';
import { API_KEY, assertKeyAccess, clientIp, requestParams } from '../signed-request';
import type { UserDataStreams } from '../user-data-streams';

/** USER_STREAM security: the API key header only, no signature (as on Binance). */
const accountOfKey = (exchange: SandboxExchange, request: FastifyRequest): number => {
  const header = request.headers['x-mbx-apikey'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (!apiKey || !API_KEY.test(apiKey)) throw binanceErrors.apiKeyFormat();
  const key = exchange.accounts.key(apiKey);
  if (!key) throw binanceErrors.apiKeyRejected();
  assertKeyAccess(key, clientIp(request));
  return key.accountId;
};

const listenKeyParam = (request: FastifyRequest): string => {
  const listenKey = requestParams(request).get('listenKey');
  if (!listenKey) throw binanceErrors.mandatory('listenKey');
  return listenKey;
};

/** Binance's spot listenKey endpoints: open (or extend) a stream, keep it alive, close it. */
export const userDataStreamRoutes = (
  app: FastifyInstance,
  exchange: SandboxExchange,
  streams: UserDataStreams,
): void => {
  app.post('/api/v3/userDataStream', async (request) => ({
    listenKey: streams.createListenKey(accountOfKey(exchange, request)),
  }));
  app.put('/api/v3/userDataStream', async (request) => {
    streams.keepAlive(accountOfKey(exchange, request), listenKeyParam(request));
    return {};
  });
  app.delete('/api/v3/userDataStream', async (request) => {
    streams.closeListenKey(accountOfKey(exchange, request), listenKeyParam(request));
    return {};
  });
};
