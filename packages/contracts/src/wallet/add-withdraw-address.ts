import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZTronAddress } from './withdrawal';

/**
 * Saves the first withdrawal address (`?address=T…`); later changes go through update. Creates the
 * wallet (the deposit address) first when create_wallet was not called yet.
 */
export const addWithdrawAddress = defineEndpoint({
  id: 'wallet.addWithdrawAddress',
  method: 'POST',
  path: '/wallet/add_withdraw_address',
  summary: 'Save the withdrawal address',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  query: z.object({ address: ZTronAddress }),
  response: z.object({
    withdrawAddress: z.string(),
    usableFrom: ZIsoDateTime.describe('withdrawals to it are refused before this instant'),
  }),
  invalidates: ['wallet.getWallet'],
  errors: {
    400: documented(
      'WITHDRAW_ADDRESS_FORMAT',
      'WITHDRAW_ADDRESS_IS_DEPOSIT',
      'WITHDRAW_ADDRESS_CONTRACT',
      'WITHDRAW_ADDRESS_BLACK_HOLE',
      'WITHDRAW_ADDRESS_PLATFORM',
      'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT',
    ),
    401: documented('UNAUTHORIZED'),
    409: documented('WITHDRAW_ADDRESS_EXISTS'),
    423: documented('WITHDRAWALS_FROZEN'),
    429: documented('RATE_LIMITED'),
    503: documented('WALLET_NOT_CONFIGURED', 'ADDRESS_CHECK_UNAVAILABLE'),
  },
});
