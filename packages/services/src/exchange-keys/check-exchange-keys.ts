import type { Exchange } from '@gridbot/contracts';
import { isExchangeError, type KeyPermissions } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';
import { type ApiKeyView, toApiKeyView } from './api-key-view';
import { type EgressIps, getEgressIps } from './egress-ips';

/** Why saved keys do not work (a catalogue code, or NO_API_KEYS); null when they do. */
export type KeyProblem =
  | 'NO_API_KEYS'
  | 'API_KEY_INVALID'
  | 'API_KEY_NO_SPOT'
  | 'API_KEY_ACCOUNT_TYPE'
  | 'API_KEY_WITHDRAW_ENABLED'
  | 'API_KEY_IP_NOT_ALLOWED'
  | 'API_KEY_TRADING_EXPIRED'
  | 'EXCHANGE_UNAVAILABLE'
  | 'EXCHANGE_BALANCE_ZERO';

export type KeyCheck = {
  hasKeys: boolean;
  connected: boolean;
  exchange: Exchange | null;
  permissions: { spot: boolean; withdraw: boolean } | null;
  usdtBalance: string | null;
  problem: KeyProblem | null;
  checkedAt: string;
  key: ApiKeyView | null;
  egress: EgressIps;
  /** The exchanges the user has keys on, in the order saved. */
  accounts: Exchange[];
};

const KEY_PROBLEMS = new Set<string>([
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
  'API_KEY_ACCOUNT_TYPE',
  'API_KEY_WITHDRAW_ENABLED',
  'API_KEY_IP_NOT_ALLOWED',
  'API_KEY_TRADING_EXPIRED',
]);

/** What the key check learns about a key's access, kept on the account (the expiry notices read it). */
export const keyAccessColumns = (granted: KeyPermissions) => ({
  canTrade: granted.spot,
  canWithdraw: granted.withdrawals,
  ipRestricted: granted.ipRestricted,
  tradingExpiresAt: granted.tradingExpiresAt === null ? null : new Date(granted.tradingExpiresAt),
});

/**
 * A live check of the user's saved keys on the exchange: permissions and the USDT balance. The
 * result is kept on the account (checked_at, check_problem) for start-trading and the profile.
 * connected: the keys can trade; an empty USDT balance is still reported as the problem, since no
 * bot can buy with it.
 */
export const checkExchangeKeys = async (
  ctx: ServiceContext,
  input: { userId: number; exchange?: Exchange | undefined; exchangeAccountId?: number },
): Promise<KeyCheck> => {
  const now = ctx.clock.now();
  const [egress, all] = await Promise.all([
    getEgressIps(ctx),
    ctx.prisma.exchangeAccount.findMany({ where: { userId: input.userId }, orderBy: { id: 'asc' } }),
  ]);
  const accounts = all.map((a) => a.exchange as Exchange);
  // The keys of one exchange (the account's, the one named, else the keys saved first).
  const account = all.find(
    (a) =>
      (input.exchangeAccountId === undefined || a.id === input.exchangeAccountId) &&
      (!input.exchange || a.exchange === input.exchange),
  );
  if (!account) {
    return {
      hasKeys: false,
      connected: false,
      exchange: input.exchange ?? null,
      permissions: null,
      usdtBalance: null,
      problem: 'NO_API_KEYS',
      checkedAt: now.toISOString(),
      key: null,
      egress,
      accounts,
    };
  }
  let problem: KeyProblem | null = null;
  let permissions: { spot: boolean; withdraw: boolean } | null = null;
  let granted: KeyPermissions | null = null;
  let usdtBalance: string | null = null;
  try {
    const client = await ctx.exchanges.forAccount(account.id);
    granted = await client.checkPermissions();
    permissions = { spot: granted.spot, withdraw: granted.withdrawals };
    const expired = granted.tradingExpiresAt !== null && granted.tradingExpiresAt <= now.getTime();
    if (granted.withdrawals) problem = 'API_KEY_WITHDRAW_ENABLED';
    else if (!granted.spot && expired) problem = 'API_KEY_TRADING_EXPIRED';
    else if (!granted.spot) problem = 'API_KEY_NO_SPOT';
    else if (granted.unifiedAccount === false) problem = 'API_KEY_ACCOUNT_TYPE';
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
        ...(granted ? keyAccessColumns(granted) : {}),
      },
    });
  }
  const connected = problem === null || problem === 'EXCHANGE_BALANCE_ZERO';
  return {
    hasKeys: true,
    connected,
    exchange: account.exchange as Exchange,
    permissions,
    usdtBalance,
    problem,
    checkedAt: now.toISOString(),
    key: toApiKeyView(stored),
    egress,
    accounts,
  };
};
