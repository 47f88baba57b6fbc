import { z } from 'zod';
import { defineEndpoint, ZIdempotencyHeaders } from '../core';
import { documented } from '../errors';
import { ZExchange } from '../profile/exchange-keys';
import { ZBalances } from './transaction';
import { ZWithdrawAmount, ZWithdrawal } from './withdrawal';

/**
 * Withdraws `summ` (at least 11 USDT, network fee included) to the saved address, or with
 * `to=exchange` to the deposit address of the user's exchange account (withdraw_exchange). The
 * amount is held at once; the withdrawal starts `approved` while the user's withdrawals of the last
 * 24 h stay within the operator's automatic allowance, else `pending` until an operator decides
 * (docs/wallet.md#allowance). Refused while frozen and to an address still locked. A retry with the same `Idempotency-Key` returns the same
 * withdrawal.
 */
export const withdrawMoney = defineEndpoint({
  id: 'wallet.withdrawMoney',
  method: 'POST',
  path: '/wallet/withdraw_money',
  summary: 'Withdraw USDT TRC20',
  tags: ['wallet'],
  auth: true,
  query: z.object({
    summ: ZWithdrawAmount.describe('USDT, at least 11'),
    to: z.enum(['address', 'exchange']).default('address'),
    exchange: ZExchange.optional().describe(
      'with to=exchange: whose TRC20 USDT deposit address; required when the user has keys on several exchanges',
    ),
  }),
  headers: ZIdempotencyHeaders,
  response: z.object({ withdrawal: ZWithdrawal, balances: ZBalances }),
  invalidates: ['wallet.getWallet'],
  errors: {
    400: documented(
      'VALIDATION',
      'EXCHANGE_REQUIRED',
      'WITHDRAW_ADDRESS_FORMAT',
      'WITHDRAW_ADDRESS_IS_DEPOSIT',
      'WITHDRAW_ADDRESS_CONTRACT',
      'WITHDRAW_ADDRESS_BLACK_HOLE',
      'WITHDRAW_ADDRESS_PLATFORM',
      'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT',
    ),
    401: documented('UNAUTHORIZED'),
    409: documented('REQUEST_CONFLICT'),
    422: documented('INSUFFICIENT_FUNDS', 'WITHDRAW_ADDRESS_MISSING', 'NO_API_CONNECTION'),
    423: documented('WITHDRAW_ADDRESS_LOCKED', 'WITHDRAWALS_FROZEN'),
    502: documented('EXCHANGE_UNAVAILABLE'),
    503: documented('ADDRESS_CHECK_UNAVAILABLE'),
  },
});
