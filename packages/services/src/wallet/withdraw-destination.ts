import type { Prisma, PrismaClient } from '@gridbot/db';
import type { DataContext } from '../context/service-context';
import { AppError } from '../errors';
import { isTronAddress } from './tron-keys';

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * TRON's black-hole address: 0x41 followed by twenty zero bytes, in base58check. Nobody holds its
 * key; money sent there is gone.
 */
export const TRON_BLACK_HOLE = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

/** How long the API waits for the node's answer before it says it cannot check now. */
const NODE_TIMEOUT_MS = 5000;

/**
 * Whether the address is a smart contract, asked from the TRON node (TRON_NODE_URL). java-tron's
 * HTTP API `POST /wallet/getcontract` with `{ value, visible: true }` answers the contract's
 * SmartContract (`contract_address`, `bytecode`, `abi`, …) for a contract and `{}` for any other
 * address (developers.tron.network, HTTP API → Smart Contracts → GetContract; java-tron's
 * GetContractServlet). No node, an error, or no answer in time: ADDRESS_CHECK_UNAVAILABLE (503),
 * so nothing is saved or sent on a guess.
 */
export const isContractAddress = async (ctx: DataContext, address: string): Promise<boolean> => {
  const url = ctx.env.TRON_NODE_URL;
  if (!url) {
    ctx.log.error('TRON_NODE_URL is not set: withdrawal addresses cannot be checked for contracts');
    throw new AppError('ADDRESS_CHECK_UNAVAILABLE');
  }
  let answer: unknown;
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/wallet/getcontract`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(ctx.env.TRON_API_KEY ? { 'TRON-PRO-API-KEY': ctx.env.TRON_API_KEY } : {}),
      },
      body: JSON.stringify({ value: address, visible: true }),
      signal: AbortSignal.timeout(NODE_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    answer = await response.json();
  } catch (error) {
    ctx.log.warn({ err: error, address }, 'the TRON node did not answer a contract check');
    throw new AppError('ADDRESS_CHECK_UNAVAILABLE');
  }
  if (!answer || typeof answer !== 'object' || 'Error' in answer) {
    ctx.log.warn({ answer, address }, 'the TRON node answered a contract check with an error');
    throw new AppError('ADDRESS_CHECK_UNAVAILABLE');
  }
  return Object.keys(answer).length > 0;
};

/**
 * Refuses every destination that can never be the user's own wallet (docs/wallet.md#refused-addresses):
 * a malformed address, TRON's black hole, the user's own deposit address, any other user's deposit
 * address (never saying whose: "use an internal transfer"), the platform's own addresses (hot and
 * cold wallets: a withdrawal to the hot wallet would move the books and not the chain), and any
 * smart contract (the node is asked last: it is the only check that leaves the database).
 * Applied when an address is saved, when an exchange's deposit address is used, and again at
 * every withdrawal (an address saved before a rule existed).
 */
export const assertWithdrawDestination = async (
  ctx: DataContext,
  input: { userId: number; address: string },
  db: Db = ctx.prisma,
): Promise<void> => {
  const { address } = input;
  if (!isTronAddress(address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  if (address === TRON_BLACK_HOLE) throw new AppError('WITHDRAW_ADDRESS_BLACK_HOLE');
  const [deposit, platform] = await Promise.all([
    db.wallet.findUnique({ where: { depositAddress: address }, select: { userId: true } }),
    db.platformAddress.findUnique({ where: { address }, select: { role: true } }),
  ]);
  if (deposit) {
    throw new AppError(
      deposit.userId === input.userId ? 'WITHDRAW_ADDRESS_IS_DEPOSIT' : 'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT',
    );
  }
  if (platform) throw new AppError('WITHDRAW_ADDRESS_PLATFORM');
  if (await isContractAddress(ctx, address)) throw new AppError('WITHDRAW_ADDRESS_CONTRACT');
};

/**
 * Records one of the platform's own addresses (docs/wallet.md#refused-addresses): the watcher
 * records the hot wallet's at every start; the role of an address already known is updated.
 */
export const recordPlatformAddress = async (
  db: Db,
  input: { address: string; role: 'hot' | 'cold' },
): Promise<void> => {
  await db.platformAddress.upsert({
    where: { address: input.address },
    create: { address: input.address, role: input.role },
    update: { role: input.role },
  });
};
