import { z } from 'zod';
import { defineEndpoint, ZUsdt } from '../core';
import { documented } from '../errors';

/** Deposit screen: the address to pay to (404 until create_wallet) and what gets credited. */
export const getDepositAddress = defineEndpoint({
  id: 'wallet.getDepositAddress',
  method: 'POST',
  path: '/wallet/get_address',
  summary: 'USDT TRC20 deposit address',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  response: z.object({
    depositAddress: z.string(),
    network: z.literal('TRC20'),
    token: z.literal('USDT'),
    contract: z.string().describe('USDT TRC20 contract; other tokens are not credited'),
    minDeposit: ZUsdt.describe('smaller deposits are recorded and not credited'),
    confirmations: z.number().int().describe('blocks until credited'),
  }),
  errors: {
    401: documented('UNAUTHORIZED'),
    404: documented('DEPOSIT_ADDRESS_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
