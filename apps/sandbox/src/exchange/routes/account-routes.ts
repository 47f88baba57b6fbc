import type { FastifyInstance } from 'fastify';
import { accountUid, canTradeNow } from '../accounts';
import { binanceErrors } from '../binance-error';
import { BNB, BNB_DISCOUNT } from '../commission';
import { fmt8 } from '../money';
import { integerParam, limitParam, required } from '../order-params';
import type { SandboxExchange } from '../sandbox-exchange';
import { authenticate } from '../signed-request';
import { myTradeJson } from '../wire';

const DAY_MS = 86_400_000;
const ZERO8 = '0.00000000';

/** Binance's SIGNED account endpoints: balances, own trades and the key's permissions. */
export const accountRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/api/v3/account', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const account = exchange.accounts.account(key.accountId);
    const omitZero = params.get('omitZeroBalances') === 'true';
    const balances = exchange.accounts
      .balances(key.accountId)
      .filter((b) => !omitZero || b.free !== '0.00000000' || b.locked !== '0.00000000');
    const rate = exchange.engine.feeRate;
    // rest-api.md "Account information": the rates in basis points and as decimals (the sandbox's fee).
    const bps = rate.mul(10_000).toNumber();
    return {
      makerCommission: bps,
      takerCommission: bps,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: { maker: fmt8(rate), taker: fmt8(rate), buyer: ZERO8, seller: ZERO8 },
      canTrade: canTradeNow(key),
      canWithdraw: key.permissions.withdrawals,
      canDeposit: true,
      brokered: false,
      requireSelfTradePrevention: false,
      preventSor: false,
      updateTime: account.updatedAt,
      accountType: 'SPOT',
      balances,
      permissions: ['SPOT'],
      uid: accountUid(account.id),
    };
  });

  // rest-api.md "Query Commission Rates": the standard rates, no tax or special commission, and
  // whether this account pays them in BNB at the discount (faqs/commission_faq.md).
  app.get('/api/v3/account/commission', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const state = exchange.market(required(params, 'symbol'));
    const rate = fmt8(exchange.engine.feeRate);
    const none = { maker: ZERO8, taker: ZERO8, buyer: ZERO8, seller: ZERO8 };
    return {
      symbol: state.market.symbol,
      standardCommission: { maker: rate, taker: rate, buyer: ZERO8, seller: ZERO8 },
      specialCommission: none,
      taxCommission: none,
      discount: {
        enabledForAccount: exchange.accounts.paysFeesInBnb(key.accountId),
        enabledForSymbol: true,
        discountAsset: BNB,
        discount: fmt8(BNB_DISCOUNT),
      },
    };
  });

  // rest-api.md "Query Unfilled Order Count": the account's ORDERS pools as the sandbox counts them.
  app.get('/api/v3/rateLimit/order', async (request) => {
    const { key } = authenticate(exchange, request, 'read');
    return exchange.rateLimits.orderCounts(key.accountId).map(({ pool, count }) => ({
      rateLimitType: pool.venueName,
      interval: pool.interval.unit,
      intervalNum: pool.interval.num,
      limit: pool.limit,
      count,
    }));
  });

  // No self-trade prevention and no SOR in the sandbox: nothing was ever prevented or allocated.
  app.get('/api/v3/myPreventedMatches', async (request) => {
    const { params } = authenticate(exchange, request, 'read');
    exchange.market(required(params, 'symbol'));
    return [];
  });
  app.get('/api/v3/myAllocations', async (request) => {
    const { params } = authenticate(exchange, request, 'read');
    exchange.market(required(params, 'symbol'));
    return [];
  });

  app.get('/api/v3/myTrades', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const state = exchange.market(required(params, 'symbol'));
    const orderId = integerParam(params, 'orderId');
    const fromId = integerParam(params, 'fromId');
    const startTime = integerParam(params, 'startTime');
    const endTime = integerParam(params, 'endTime');
    if (startTime !== undefined && endTime !== undefined && endTime - startTime > DAY_MS) {
      throw binanceErrors.rangeTooLong();
    }
    const matching = exchange.engine
      .trades(key.accountId, state.market.symbol)
      .filter(
        (t) =>
          (orderId === undefined || t.orderId === orderId) &&
          (fromId === undefined || t.id >= fromId) &&
          (startTime === undefined || t.time >= startTime) &&
          (endTime === undefined || t.time <= endTime),
      );
    const limit = limitParam(params);
    // With a starting point Binance pages forward from it; without one it returns the newest.
    const fromStart = fromId !== undefined || startTime !== undefined;
    return (fromStart ? matching.slice(0, limit) : matching.slice(-limit)).map(myTradeJson);
  });

  app.get('/sapi/v1/account/apiRestrictions', async (request) => {
    const { key } = authenticate(exchange, request, 'read');
    // Binance's shape (wallet docs, "Get API Key Permission"): `tradingAuthorityExpirationTime`
    // only on a key whose trading has a term (no IP restriction); once it has passed Binance has
    // unticked the permission, so enableSpotAndMarginTrading reads false.
    return {
      ipRestrict: key.ipWhitelist.length > 0,
      createTime: key.createdAt,
      enableReading: true,
      enableSpotAndMarginTrading: canTradeNow(key),
      enableWithdrawals: key.permissions.withdrawals,
      enableInternalTransfer: false,
      enableMargin: false,
      enableFutures: false,
      permitsUniversalTransfer: false,
      enableVanillaOptions: false,
      enablePortfolioMarginTrading: false,
      ...(key.tradingExpiresAt === null ? {} : { tradingAuthorityExpirationTime: key.tradingExpiresAt }),
    };
  });
};
