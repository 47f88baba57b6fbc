import { isExchangeError } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';
import { type ApiKeyView, toApiKeyView } from './api-key-view';

/** Why saved keys do not work (a catalogue code, or NO_API_KEYS); null when they do. */
export type KeyProblem =
  | 'NO_API_KEYS'
  | 'API_KEY_INVALID'
  | 'API_KEY_NO_SPOT'
  | 'API_KEY_WITHDRAW_ENABLED'
  | 'EXCHANGE_UNAVAILABLE'
  | 'EXCHANGE_BALANCE_ZERO';

export type KeyCheck = {
  hasKeys: boolean;
  connected: boolean;
  exchange: string | null;
  permissions: { spot: boolean; withdraw: boolean } | null;
  usdtBalance: string | null;
  problem: KeyProblem | null;
  checkedAt: string;
  key: ApiKeyView | null;
};

const KEY_PROBLEMS = new Set<string>(['API_KEY_INVALID', 'API_KEY_NO_SPOT', 'API_KEY_WITHDRAW_ENABLED']);

/**
 * A live check of the user's saved keys on the exchange: permissions and the USDT balance. The
 * result is kept on the account (checked_at, check_problem) for start-trading and the profile.
 * connected: the keys can trade; an empty USDT balance is still reported as the problem, since no
 * bot can buy with it.
 */
export const checkExchangeKeys = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<KeyCheck> => {
  const now = ctx.clock.now();
  const account = await ctx.prisma.exchangeAccount.findFirst({
    where: { userId: input.userId },
    orderBy: { id: 'asc' },
  });
  if (!account) {
    return {
      hasKeys: false,
      connected: false,
      exchange: null,
      permissions: null,
      usdtBalance: null,
      problem: 'NO_API_KEYS',
      checkedAt: now.toISOString(),
      key: null,
    };
  }
  let problem: KeyProblem | null = null;
  let permissions: { spot: boolean; withdraw: boolean } | null = null;
  let usdtBalance: string | null = null;
  try {
    const client = await ctx.exchanges.forAccount(account.id);
    const granted = await client.checkPermissions();
    permissions = { spot: granted.spot, withdraw: granted.withdrawals };
    if (granted.withdrawals) problem = 'API_KEY_WITHDRAW_ENABLED';
    else if (!granted.spot) problem = 'API_KEY_NO_SPOT';
    else {
      const balances = await client.fetchBalance();
      const usdt = balances.USDT;
      usdtBalance = usdt ? usdt.free.toFixed() : '0';
      if (!usdt || usdt.total.isZero()) problem = 'EXCHANGE_BALANCE_ZERO';
    }
  } catch (error) {
    if (!isExchangeError(error)) throw error;
    problem = KEY_PROBLEMS.has(error.code) ? (error.code as KeyProblem) : 'EXCHANGE_UNAVAILABLE';
  }
  // An unanswered check says nothing about the keys: keep the last verdict on the account.
  let stored = account;
  if (problem !== 'EXCHANGE_UNAVAILABLE') {
    stored = await ctx.prisma.exchangeAccount.update({
      where: { id: account.id },
      data: {
        checkedAt: now,
        checkProblem: problem === 'EXCHANGE_BALANCE_ZERO' ? null : problem,
        ...(permissions ? { canTrade: permissions.spot, canWithdraw: permissions.withdraw } : {}),
      },
    });
  }
  const connected = problem === null || problem === 'EXCHANGE_BALANCE_ZERO';
  return {
    hasKeys: true,
    connected,
    exchange: account.exchange,
    permissions,
    usdtBalance,
    problem,
    checkedAt: now.toISOString(),
    key: toApiKeyView(stored),
  };
};
