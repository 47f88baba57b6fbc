import type { User } from '@gridbot/db';
import type { SandboxExchangeHandle } from '@gridbot/sandbox';
import { expect } from 'vitest';
import type { TestApp } from '../test-app';
import { bookDeposit } from '../wallet-fixtures';

/** The fuzz's coins: listed on the sandbox exchange, so adds, starts and backtests go deep. */
export const FUZZ_COINS = ['XRP', 'ADA', 'SOL'] as const;

const WITHDRAW_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

export type Member = { user: User; headers: Record<string, string> };

/**
 * Who the fuzz plays with. Attackers take turns (one per request, so per-user rate limits of one
 * call per 1–3 s are not what answers). The equipped ones have exchange keys, a coin bot, money in
 * the main and fee balances, a withdrawal address and a partner of their own; the others only a
 * fee balance (they meet the "add your keys first" answers). The victim and the victim's partner
 * sit outside every attacker's downline: their ids are what an attacker must not reach.
 */
export type FuzzCast = {
  attackers: Member[];
  victim: Member;
  victimPartner: User;
  /** Everyone's UIDs and coin bot ids. */
  ids: number[];
  /** Valid TRON addresses: everyone's deposit addresses and the withdrawal address. */
  addresses: string[];
  /** Keys of two more sandbox accounts (the second may withdraw): `[apiKey, secret, …]`. */
  apiKeys: string[];
};

const member = async (t: TestApp, username: string, sponsorId?: number): Promise<Member> => {
  const user = await t.createUser({ username, feeBalance: '50', ...(sponsorId ? { sponsorId } : {}) });
  return { user, headers: await t.authHeader(user) };
};

const post = async (t: TestApp, who: Member, url: string, payload?: object) => {
  const answer = await t.app.inject({
    method: 'POST',
    url,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  });
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer;
};

/** Keys on the sandbox exchange, a coin bot, 100 USDT in the main balance, a withdrawal address. */
const equip = async (t: TestApp, sandbox: SandboxExchangeHandle, who: Member, coin: string) => {
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  await post(t, who, '/profile/api_key', { apiKey: keys.apiKey, secretKey: keys.secret });
  await post(t, who, `/portfolio/add_coin/add?data_send=${coin}`);
  await bookDeposit(t.prisma, who.user, '100');
  await post(t, who, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`);
};

export const createFuzzCast = async (
  t: TestApp,
  sandbox: SandboxExchangeHandle,
  attackerCount: { equipped: number; plain: number },
): Promise<FuzzCast> => {
  const victim = await member(t, 'fuzz_victim');
  await equip(t, sandbox, victim, 'XRP');
  await post(t, victim, '/wallet/withdraw_money?summ=11');
  const victimPartner = (await member(t, 'fuzz_victim_partner', victim.user.id)).user;
  const attackers = [];
  for (let i = 0; i < attackerCount.equipped; i += 1) {
    const attacker = await member(t, `fuzz_attacker_${i}`);
    await equip(t, sandbox, attacker, FUZZ_COINS[i % FUZZ_COINS.length]!);
    await member(t, `fuzz_partner_${i}`, attacker.user.id);
    attackers.push(attacker);
  }
  for (let i = 0; i < attackerCount.plain; i += 1) attackers.push(await member(t, `fuzz_plain_${i}`));
  const coinBots = await t.prisma.coinBot.findMany({ select: { id: true } });
  const users = await t.prisma.user.findMany({ select: { uid: true } });
  const wallets = await t.prisma.wallet.findMany({ select: { depositAddress: true } });
  const trading = sandbox.control.createAccount({ balances: { USDT: '500' } });
  const withdrawing = sandbox.control.createAccount({ permissions: { spot: true, withdrawals: true } });
  return {
    attackers,
    victim,
    victimPartner,
    ids: [...coinBots.map((bot) => bot.id), ...users.map((user) => user.uid)],
    addresses: [...wallets.map((wallet) => wallet.depositAddress), WITHDRAW_ADDRESS],
    apiKeys: [trading.apiKey, trading.secret, withdrawing.apiKey, withdrawing.secret],
  };
};
