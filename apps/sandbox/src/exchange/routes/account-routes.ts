import type { FastifyInstance } from 'fastify';
import { accountUid, canTradeNow } from '../accounts';
import { binanceErrors } from '../binance-error';
import { fmt8 } from '../money';
import { integerParam, limitParam, required } from '../order-params';
import type { SandboxExchange } from '../sandbox-exchange';
import { authenticate } from '../signed-request';
import { myTradeJson } from '../wire';

const DAY_MS = 86_400_000;

/** Binance's SIGNED account endpoints: balances, own trades and the key's permissions. */
export const accountRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/api/v3/account', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const account = exchange.accounts.account(key.accountId);
    const omitZero = params.get('omitZeroBalances') === 'true';
    const balances = exchange.accounts
      .balances(key.accountId)
      .filter((b) => !omitZero || b.free !== '0.00000000' || b.locked !== '0.00000000');
    return {
      makerCommission: 10,
      takerCommission: 10,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: {
        maker: '0.00100000',
        taker: '0.00100000',
        buyer: '0.00000000',
        seller: '0.00000000',
      },
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

  // rest-api.md "Query Commission Rates": the sandbox has one rate for maker and taker (`feePct`),
  // no special or tax commission; the BNB discount is Binance's 25 %, not enabled for the account.
  app.get('/api/v3/account/commission', async (request) => {
    const { params } = authenticate(exchange, request, 'read');
    const state = exchange.market(required(params, 'symbol'));
    const rate = fmt8(exchange.feeRate);
    const zero = fmt8(exchange.feeRate.mul(0));
    return {
      symbol: state.market.symbol,
      standardCommission: { maker: rate, taker: rate, buyer: zero, seller: zero },
      specialCommission: { maker: zero, taker: zero, buyer: zero, seller: zero },
      taxCommission: { maker: zero, taker: zero, buyer: zero, seller: zero },
      discount: {
        enabledForAccount: false,
        enabledForSymbol: true,
        discountAsset: 'BNB',
        discount: '0.25000000',
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
