import { isApiError } from './api-error';
import { TOO_MANY_REQUESTS } from './request-guard';

/**
 * Server messages of spec §8 mapped to client texts (keys of `errors.*`). Anything else is the
 * generic "operation failed" text.
 */
const SERVER_MESSAGES: Record<string, ErrorTextKey> = {
  'Your USDT balance on the exchange account should be more than zero': 'exchangeBalanceZero',
  'To start, you need to top up your wallet to pay trading fees': 'topUpWallet',
  'Внутренняя ошибка сервера': 'internal',
  'Адрес депозита не найден': 'depositAddressNotFound',
  "You don't have enough money on your account": 'notEnoughMoney',
  'Withdrawal address format error': 'withdrawAddressFormat',
  'You have reached your license balance limit.': 'licenseBalanceLimit',
  'Limit expiration of free license, cannot start trading.': 'freeLicenseExpired',
  'No API connection': 'noApiConnection',
  'Failed to update licence, try again later': 'licenseUpdateFailed',
  'You have exceeded the number of coins in your portfolio': 'coinLimit',
  'You cannot transfer to yourself': 'transferToSelf',
  'User not found': 'recipientMissing',
  'API keys need spot trading permission enabled': 'apiKeysNeedSpot',
  [TOO_MANY_REQUESTS]: 'tooManyRequests',
  Unauthorized: 'authorization',
};

export type ErrorTextKey =
  | 'exchangeBalanceZero'
  | 'topUpWallet'
  | 'internal'
  | 'depositAddressNotFound'
  | 'notEnoughMoney'
  | 'withdrawAddressFormat'
  | 'licenseBalanceLimit'
  | 'freeLicenseExpired'
  | 'noApiConnection'
  | 'licenseUpdateFailed'
  | 'coinLimit'
  | 'transferToSelf'
  | 'recipientMissing'
  | 'apiKeysNeedSpot'
  | 'tooManyRequests'
  | 'authorization'
  | 'notAvailableYet'
  | 'network'
  | 'generic';

export const errorTextKeyOf = (error: unknown): ErrorTextKey => {
  if (!isApiError(error)) return 'generic';
  const known = SERVER_MESSAGES[error.message];
  if (known) return known;
  if (error.status === 429) return 'tooManyRequests';
  if (error.status === 501) return 'notAvailableYet';
  if (error.code === 'NETWORK') return 'network';
  return 'generic';
};

/**
 * Wallet deposit, create-wallet and address errors (spec §8): the server's detail, then the error
 * message, then 'Unknown error' (the caller translates that last one).
 */
export const walletErrorText = (error: unknown): string | null => {
  if (!isApiError(error)) return null;
  return error.detail || error.message || null;
};
