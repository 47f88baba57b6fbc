import { binance } from '@gridbot/venues';
import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import type { KeyAccess, KeyPermissions, NewAccount } from '../accounts';
import type { SandboxControl } from '../control';
import type { LiquiditySpec } from '../liquidity';
import { type MarketFilterChange, SYMBOL_STATUSES, type SymbolStatus } from '../markets';
import type { ForcedOverLimit, PoolLimits } from '../rate-limits';
import { asBinanceError } from '../refusal';
import type { ExchangeOutage, OrderResponseFault, SandboxMarketConfig } from '../sandbox-exchange';
import { clientIp } from '../signed-request';

const decimalString = { type: 'string', pattern: '^\\d+(\\.\\d+)?$' } as const;
const balances = { type: 'object', additionalProperties: decimalString } as const;
const permissions = {
  type: 'object',
  additionalProperties: false,
  properties: { spot: { type: 'boolean' }, withdrawals: { type: 'boolean' } },
} as const;

const ipWhitelist = {
  type: 'array',
  maxItems: 30,
  items: { type: 'string', minLength: 2, maxLength: 45 },
} as const;
const tradingExpiresAt = { type: ['integer', 'null'], minimum: 0 } as const;

type KeyParams = { Params: { apiKey: string }; Querystring: { symbol?: string } };

/** The unsigned control API under /_sandbox/, for loopback clients only (../../loopback.ts). */
export const controlRoutes = async (app: FastifyInstance, { control }: { control: SandboxControl }) => {
  app.addHook(
    'onRequest',
    loopbackOnly({ code: -2015, msg: 'The sandbox control API answers on localhost only.' }),
  );
  app.setErrorHandler(async (error, _request, reply) => {
    const known = asBinanceError(error);
    if (known) return reply.status(known.httpStatus).send(known.toJSON());
    const failure = error as { statusCode?: number; message: string };
    return reply.status(failure.statusCode ?? 400).send({ error: failure.message });
  });

  app.post<{ Body: NewAccount }>(
    '/_sandbox/accounts',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            balances,
            permissions,
            bnbBurn: { type: 'boolean' },
            // A Bybit classic account (query-api `uta` 0), docs/venues/bybit.md#keys.
            bybitClassic: { type: 'boolean' },
            apiKey: { type: 'string', pattern: '^[A-Za-z0-9]{1,128}$' },
            secret: { type: 'string', minLength: 16, maxLength: 128 },
            // OKX's passphrase (printable, no spaces, 1–32; docs/venues/okx.md#keys).
            passphrase: { type: 'string', pattern: '^[\\x21-\\x7E]{1,32}$' },
            ipWhitelist,
            tradingExpiresAt,
          },
        },
      },
    },
    async (request) => control.createAccount(request.body ?? {}),
  );
  app.get<KeyParams>('/_sandbox/accounts/:apiKey', async (request) => control.account(request.params.apiKey));
  app.put<KeyParams & { Body: { balances: Record<string, string> } }>(
    '/_sandbox/accounts/:apiKey/balances',
    { schema: { body: { type: 'object', required: ['balances'], properties: { balances } } } },
    async (request) => ({ balances: control.setBalances(request.params.apiKey, request.body.balances) }),
  );
  app.put<KeyParams & { Body: Partial<KeyPermissions> }>(
    '/_sandbox/accounts/:apiKey/permissions',
    { schema: { body: permissions } },
    async (request) => control.setPermissions(request.params.apiKey, request.body),
  );
  app.put<KeyParams & { Body: Partial<KeyAccess> }>(
    '/_sandbox/accounts/:apiKey/access',
    {
      schema: {
        body: { type: 'object', additionalProperties: false, properties: { ipWhitelist, tradingExpiresAt } },
      },
    },
    async (request) => control.setKeyAccess(request.params.apiKey, request.body),
  );
  // The caller's address as the sandbox sees it: what a key's IP whitelist compares (an
  // installation on the sandbox discovers its egress IP here, docs/security.md#exchange-keys).
  app.get('/_sandbox/whoami', async (request) => ({ ip: clientIp(request) }));
  app.put<KeyParams & { Body: { spotBNBBurn: boolean } }>(
    '/_sandbox/accounts/:apiKey/bnb-burn',
    {
      schema: {
        body: {
          type: 'object',
          required: ['spotBNBBurn'],
          additionalProperties: false,
          properties: { spotBNBBurn: { type: 'boolean' } },
        },
      },
    },
    async (request) => control.setBnbBurn(request.params.apiKey, request.body.spotBNBBurn),
  );
  app.get<KeyParams>('/_sandbox/accounts/:apiKey/orders', async (request) =>
    control.orders(request.params.apiKey, request.query.symbol),
  );
  app.get<KeyParams>('/_sandbox/accounts/:apiKey/trades', async (request) =>
    control.trades(request.params.apiKey, request.query.symbol),
  );

  app.get('/_sandbox/markets', async () => control.markets());
  app.post<{ Body: SandboxMarketConfig }>(
    '/_sandbox/markets',
    {
      schema: {
        body: {
          type: 'object',
          required: ['base', 'quote', 'tickSize', 'stepSize', 'feed'],
          properties: {
            tickSize: decimalString,
            stepSize: decimalString,
            feed: {
              type: 'object',
              required: ['kind'],
              properties: { kind: { enum: ['fixed', 'random-walk', 'candles'] } },
            },
          },
        },
      },
    },
    async (request) => control.addMarket(request.body),
  );
  app.put<{ Params: { symbol: string }; Body: { price: string } }>(
    '/_sandbox/markets/:symbol/price',
    { schema: { body: { type: 'object', required: ['price'], properties: { price: decimalString } } } },
    async (request) => ({ fills: control.setPrice(request.params.symbol, request.body.price) }),
  );
  app.put<{ Params: { symbol: string }; Body: { status: SymbolStatus } }>(
    '/_sandbox/markets/:symbol/status',
    {
      schema: {
        body: {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: { status: { enum: [...SYMBOL_STATUSES] } },
        },
      },
    },
    async (request) => control.setMarketStatus(request.params.symbol, request.body.status),
  );
  app.put<{ Params: { symbol: string }; Body: MarketFilterChange }>(
    '/_sandbox/markets/:symbol/filters',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            tickSize: decimalString,
            stepSize: decimalString,
            minQty: decimalString,
            minNotional: decimalString,
          },
        },
      },
    },
    async (request) => control.setMarketFilters(request.params.symbol, request.body),
  );
  app.put<{ Params: { symbol: string }; Body: { liquidity: LiquiditySpec } }>(
    '/_sandbox/markets/:symbol/liquidity',
    {
      schema: {
        body: {
          type: 'object',
          required: ['liquidity'],
          properties: {
            liquidity: {
              oneOf: [
                { const: 'infinite' },
                {
                  type: 'object',
                  required: ['quotePerLevel'],
                  additionalProperties: false,
                  properties: { quotePerLevel: decimalString, levelSpacingPct: decimalString },
                },
              ],
            },
          },
        },
      },
    },
    async (request) => control.setLiquidity(request.params.symbol, request.body.liquidity),
  );
  app.delete<{ Params: { symbol: string } }>('/_sandbox/markets/:symbol', async (request) => {
    control.delistMarket(request.params.symbol);
    return { ok: true };
  });
  app.put<{ Body: { offsetMs: number } }>(
    '/_sandbox/clock',
    {
      schema: {
        body: {
          type: 'object',
          required: ['offsetMs'],
          additionalProperties: false,
          properties: { offsetMs: { type: 'integer', minimum: -86_400_000, maximum: 86_400_000 } },
        },
      },
    },
    async (request) => {
      control.skewClock(request.body.offsetMs);
      return { ok: true };
    },
  );
  app.post<{ Body: { steps?: number; symbol?: string } }>(
    '/_sandbox/advance',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            steps: { type: 'integer', minimum: 1, maximum: 100_000 },
            symbol: { type: 'string' },
          },
        },
      },
    },
    async (request) => ({ fills: control.advance(request.body?.steps ?? 1, request.body?.symbol) }),
  );
  app.post<{ Body: OrderResponseFault }>(
    '/_sandbox/faults/next-order',
    {
      schema: {
        body: {
          type: 'object',
          required: ['kind'],
          properties: {
            kind: { enum: ['drop', 'delay', 'unknown'] },
            delayMs: { type: 'integer', minimum: 0, maximum: 120_000 },
          },
        },
      },
    },
    async (request) => {
      control.failNextOrderResponse(request.body);
      return { ok: true };
    },
  );
  app.post<{ Body: ExchangeOutage }>(
    '/_sandbox/faults/outage',
    {
      schema: {
        body: {
          type: 'object',
          required: ['kind', 'forMs'],
          additionalProperties: false,
          properties: {
            kind: { enum: ['error', 'timeout', 'unknown'] },
            forMs: { type: 'integer', minimum: 0, maximum: 600_000 },
            delayMs: { type: 'integer', minimum: 0, maximum: 120_000 },
          },
        },
      },
    },
    async (request) => {
      control.startOutage(request.body);
      return { ok: true };
    },
  );
  // A private stream gone silent (stream-silence.ts): the account's connections, or all of them.
  app.post<{ Body: { apiKey?: string } }>(
    '/_sandbox/faults/silent-stream',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { apiKey: { type: 'string', minLength: 1 } },
        },
      },
    },
    async (request) => {
      control.silenceStreams(request.body?.apiKey);
      return { ok: true };
    },
  );
  app.post('/_sandbox/faults/silent-stream/lift', async () => {
    control.liftStreamSilence();
    return { ok: true };
  });
  // Subscriptions carried out whose answers are lost (user-data-socket.ts).
  app.post<{ Body: { count: number } }>(
    '/_sandbox/faults/lost-subscribe-answer',
    {
      schema: {
        body: {
          type: 'object',
          required: ['count'],
          additionalProperties: false,
          properties: { count: { type: 'integer', minimum: 0, maximum: 1000 } },
        },
      },
    },
    async (request) => {
      control.loseSubscribeAnswers(request.body.count);
      return { ok: true };
    },
  );

  app.post<{ Body: PoolLimits }>(
    '/_sandbox/limits',
    {
      schema: {
        body: {
          type: 'object',
          // Not additionalProperties: Fastify's validator would drop an unknown pool, not refuse it.
          propertyNames: { enum: binance.pools.map((p) => p.id) },
          additionalProperties: { type: 'integer', minimum: 1 },
        },
      },
    },
    async (request) => ({ limits: control.setLimits(request.body ?? {}) }),
  );
  app.post<{ Body: ForcedOverLimit }>(
    '/_sandbox/over-limit',
    {
      schema: {
        body: {
          type: 'object',
          required: ['status', 'retryAfterS'],
          additionalProperties: false,
          properties: {
            status: { enum: [429, 418] },
            retryAfterS: { type: 'integer', minimum: 1, maximum: 259_200 },
            ip: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    async (request) => {
      control.forceOverLimit(request.body);
      return { ok: true };
    },
  );
  app.get<{ Querystring: { since?: number } }>(
    '/_sandbox/requests',
    { schema: { querystring: { type: 'object', properties: { since: { type: 'integer', minimum: 0 } } } } },
    async (request) => ({ requests: control.requestLog(request.query.since) }),
  );
  app.post('/_sandbox/limits/reset', async () => {
    control.resetLimits();
    return { ok: true };
  });
};
