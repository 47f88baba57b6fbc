import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';

/** Derives the user's TRC20 deposit address; idempotent (`created` false when it already existed). */
export const createWallet = defineEndpoint({
  id: 'wallet.createWallet',
  method: 'POST',
  path: '/wallet/create_wallet',
  summary: 'Create the USDT TRC20 deposit address',
  tags: ['wallet'],
  auth: true,
  response: z.object({
    depositAddress: z.string(),
    network: z.literal('TRC20'),
    created: z.boolean(),
    createdAt: ZIsoDateTime,
  }),
  invalidates: ['wallet.getDepositAddress', 'wallet.getWallet'],
  errors: { 401: documented('UNAUTHORIZED'), 503: documented('WALLET_NOT_CONFIGURED') },
});
