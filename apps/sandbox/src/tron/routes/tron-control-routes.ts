import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import type { AccountAdjustment, SandboxTron, SendInput } from '../sandbox-tron';
import type { RequestQuota } from '../tron-traffic';

const amount = { type: 'string', pattern: '^\\d+(\\.\\d{1,6})?$' } as const;
const address = { type: 'string', minLength: 34, maxLength: 42 } as const;

/**
 * The TRON node's control API under /_sandbox/tron/ (loopback clients only, like the exchange's):
 * send USDT, the look-alike token or TRX from the faucet, send a transfer that reverts, produce
 * blocks, fork away unsolidified blocks, read balances, set an account's balances and resources,
 * read the node's request counts and impose a request budget. Documented in apps/sandbox/README.md.
 */
export const tronControlRoutes = async (app: FastifyInstance, { tron }: { tron: SandboxTron }) => {
  app.addHook('onRequest', loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }));
  app.setErrorHandler(async (error, _request, reply) => {
    const failure = error as { statusCode?: number; message: string };
    return reply.status(failure.statusCode ?? 400).send({ error: failure.message });
  });

  app.get('/_sandbox/tron/status', async () => tron.status());
  app.post<{ Body: SendInput }>(
    '/_sandbox/tron/send',
    {
      schema: {
        body: {
          type: 'object',
          required: ['to', 'amount'],
          additionalProperties: false,
          properties: {
            to: address,
            amount,
            token: { enum: ['usdt', 'fake'] },
            fail: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => tron.send(request.body),
  );
  app.post<{ Body: { to: string; amount: string } }>(
    '/_sandbox/tron/send-trx',
    {
      schema: {
        body: {
          type: 'object',
          required: ['to', 'amount'],
          additionalProperties: false,
          properties: { to: address, amount },
        },
      },
    },
    async (request) => tron.sendTrx(request.body),
  );
  app.post<{ Body: { count?: number } }>(
    '/_sandbox/tron/blocks',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { count: { type: 'integer', minimum: 1, maximum: 10_000 } },
        },
      },
    },
    async (request) => {
      const blocks = tron.mine(request.body?.count ?? 1);
      return { blocks: blocks.map((b) => b.number), ...tron.status() };
    },
  );
  app.post<{ Body: { depth: number; requeue?: boolean } }>(
    '/_sandbox/tron/fork',
    {
      schema: {
        body: {
          type: 'object',
          required: ['depth'],
          additionalProperties: false,
          properties: { depth: { type: 'integer', minimum: 1 }, requeue: { type: 'boolean' } },
        },
      },
    },
    async (request) => tron.chain.fork(request.body.depth, request.body.requeue ?? false),
  );
  app.get<{ Params: { address: string } }>('/_sandbox/tron/balances/:address', async (request) =>
    tron.balances(request.params.address),
  );
  app.get('/_sandbox/tron/requests', async () => tron.traffic.report());
  app.delete('/_sandbox/tron/requests', async () => {
    tron.traffic.reset();
    return tron.traffic.report();
  });
  app.post<{ Body: RequestQuota }>(
    '/_sandbox/tron/quota',
    {
      schema: {
        body: {
          type: 'object',
          required: ['requests', 'windowMs'],
          additionalProperties: false,
          properties: {
            requests: { type: 'integer', minimum: 0 },
            windowMs: { type: 'integer', minimum: 1 },
            status: { enum: [429, 403, 503] },
          },
        },
      },
    },
    async (request) => {
      tron.traffic.setQuota(request.body);
      return tron.traffic.report();
    },
  );
  app.delete('/_sandbox/tron/quota', async () => {
    tron.traffic.setQuota(undefined);
    return tron.traffic.report();
  });
  // Sets an account's TRX, USDT and resource limits at once: a hot wallet run dry, then topped up.
  app.put<{ Params: { address: string }; Body: Omit<AccountAdjustment, 'address'> }>(
    '/_sandbox/tron/accounts/:address',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            trx: amount,
            usdt: amount,
            energyLimit: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 },
            netLimit: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 },
          },
        },
      },
    },
    async (request) => tron.adjust({ address: request.params.address, ...request.body }),
  );
};
