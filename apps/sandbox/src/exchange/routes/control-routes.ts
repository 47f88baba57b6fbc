import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import type { KeyPermissions, NewAccount } from '../accounts';
import { BinanceError } from '../binance-error';
import type { SandboxControl } from '../control';
import type { LiquiditySpec } from '../liquidity';
import type { ExchangeOutage, OrderResponseFault, SandboxMarketConfig } from '../sandbox-exchange';

const decimalString = { type: 'string', pattern: '^\\d+(\\.\\d+)?$' } as const;
const balances = { type: 'object', additionalProperties: decimalString } as const;
const permissions = {
  type: 'object',
  additionalProperties: false,
  properties: { spot: { type: 'boolean' }, withdrawals: { type: 'boolean' } },
} as const;

type KeyParams = { Params: { apiKey: string }; Querystring: { symbol?: string } };

/** The unsigned control API under /_sandbox/, for loopback clients only (../../loopback.ts). */
export const controlRoutes = async (app: FastifyInstance, { control }: { control: SandboxControl }) => {
  app.addHook(
    'onRequest',
    loopbackOnly({ code: -2015, msg: 'The sandbox control API answers on localhost only.' }),
  );
  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof BinanceError) return reply.status(error.httpStatus).send(error.toJSON());
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
            apiKey: { type: 'string', pattern: '^[A-Za-z0-9]{1,128}$' },
            secret: { type: 'string', minLength: 16, maxLength: 128 },
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
};
