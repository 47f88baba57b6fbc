import type { FastifyInstance } from 'fastify';
import { accountUid } from '../accounts';
import { Dec } from '../money';
import { tronDepositAddress } from '../routes/capital-routes';
import type { SandboxExchange } from '../sandbox-exchange';
import { bybitError } from './bybit-error';
import { bybitAuthenticate } from './bybit-request';

const plain = (text: string): string => new Dec(text).toFixed();

/**
 * wallet-balance.mdx, accountType=UNIFIED: one account with a coin list; each coin's
 * `walletBalance` (free + locked) and `locked` ("Locked balance due to the Spot open order").
 * `free` is a Classic-SPOT-only field and `availableToWithdraw` is deprecated for UNIFIED (""), so
 * neither is given. Without `wanted`, only non-zero coins. USD values are not modelled ("0"). The
 * private stream's `wallet` topic pushes the same account shape. docs/venues/bybit.md#endpoints
 */
export const walletAccount = (exchange: SandboxExchange, accountId: number, wanted?: string[]) => {
  const coins = exchange.accounts
    .balances(accountId)
    .filter((b) =>
      wanted ? wanted.includes(b.asset) : !new Dec(b.free).isZero() || !new Dec(b.locked).isZero(),
    )
    .map((b) => {
      const total = new Dec(b.free).add(b.locked).toFixed();
      return {
        coin: b.asset,
        equity: total,
        usdValue: '0',
        walletBalance: total,
        locked: plain(b.locked),
        spotHedgingQty: '0',
        borrowAmount: '0',
        availableToWithdraw: '',
        accruedInterest: '0',
        totalOrderIM: '0',
        totalPositionIM: '0',
        totalPositionMM: '0',
        unrealisedPnl: '0',
        cumRealisedPnl: '0',
        bonus: '0',
        marginCollateral: true,
        collateralSwitch: true,
      };
    });
  return {
    accountType: 'UNIFIED',
    accountIMRate: '0',
    accountMMRate: '0',
    totalEquity: '0',
    totalWalletBalance: '0',
    totalMarginBalance: '0',
    totalAvailableBalance: '0',
    totalPerpUPL: '0',
    totalInitialMargin: '0',
    totalMaintenanceMargin: '0',
    accountLTV: '0',
    coin: coins,
  };
};

const USDT = 'USDT';
/** Tether's TRC20 contract on TRON mainnet (what Bybit's answer names in `contractAddress`). */
const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** USDT's chain on TRON as coin-info.mdx lists a chain (ccxt's recorded answers: chain TRX, chainType TRC20). */
const tronChain = {
  chain: 'TRX',
  chainType: 'TRC20',
  confirmation: '20',
  withdrawFee: '1',
  depositMin: '0',
  withdrawMin: '10',
  minAccuracy: '4',
  chainDeposit: '1',
  chainWithdraw: '1',
  withdrawPercentageFee: '0',
  contractAddress: USDT_TRC20_CONTRACT,
};

/** Bybit's signed account endpoints: balances, what the key may do, the account's mode. */
export const bybitAccountRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/v5/account/wallet-balance', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'read');
    if (params.get('accountType') !== 'UNIFIED') throw bybitError('10001');
    const wanted = params
      .get('coin')
      ?.split(',')
      .map((c) => c.trim().toUpperCase());
    return { list: [walletAccount(exchange, key.accountId, wanted)] };
  });

  /**
   * user/apikey-info.mdx: what the key may do. `readOnly` 0 with `Spot: ["SpotTrade"]` when it may
   * trade; `Wallet: ["Withdraw"]` when it may withdraw; `uta` 1 (a unified trading account).
   * docs/venues/bybit.md#keys
   */
  app.get('/v5/user/query-api', async (request) => {
    const { key } = bybitAuthenticate(exchange, request, 'read');
    return {
      id: String(key.accountId),
      note: 'sandbox',
      apiKey: key.apiKey,
      readOnly: key.permissions.spot ? 0 : 1,
      secret: '',
      permissions: {
        ContractTrade: [],
        Spot: key.permissions.spot ? ['SpotTrade'] : [],
        Wallet: key.permissions.withdrawals ? ['AccountTransfer', 'Withdraw'] : [],
        Options: [],
        Derivatives: [],
        CopyTrading: [],
        BlockTrade: [],
        Exchange: [],
        NFT: [],
        Affiliate: [],
      },
      ips: key.ipWhitelist.length > 0 ? key.ipWhitelist : ['*'],
      type: 1,
      deadlineDay: -1,
      expiredAt: '',
      createdAt: new Date(key.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      unified: 0,
      // user/apikey-info.mdx: 1 on a Unified Trading Account, 0 on a classic one.
      uta: key.bybitClassic ? 0 : 1,
      userID: accountUid(key.accountId),
      inviterID: 0,
      vipLevel: 'No VIP',
      mktMakerLevel: '0',
      affiliateID: 0,
      rsaPublicKey: '',
      isMaster: true,
      parentUid: '0',
    };
  });

  // account/account-info.mdx: a unified trading account (ccxt asks before trading).
  app.get('/v5/account/info', async (request) => {
    bybitAuthenticate(exchange, request, 'read');
    return {
      marginMode: 'REGULAR_MARGIN',
      updatedTime: String(exchange.now()),
      unifiedMarginStatus: 6,
      dcpStatus: 'OFF',
      timeWindow: 10,
      smpGroup: 0,
      isMasterTrader: false,
      spotHedgingStatus: 'OFF',
    };
  });

  // asset/coin-info.mdx: the coins of the listed markets; USDT with its one chain here, TRON
  // (chain "TRX", chainType "TRC20", as ccxt's recorded answers name it), the rest without chains.
  // ccxt's loadMarkets asks for them when it has a key.
  app.get('/v5/asset/coin/query-info', async (request) => {
    bybitAuthenticate(exchange, request, 'read');
    const coins = [...new Set(exchange.listMarkets().flatMap((s) => [s.market.base, s.market.quote]))].sort();
    return {
      rows: coins.map((coin) => ({
        name: coin,
        coin,
        remainAmount: '0',
        chains: coin === USDT ? [tronChain] : [],
      })),
    };
  });

  /**
   * asset/master-deposit-addr.mdx, GET /v5/asset/deposit/query-address?coin=&chainType=: the
   * account's deposit address per chain (`chains`: chainType, addressDeposit, tagDeposit, chain,
   * batchReleaseLimit, contractAddress). USDT on TRON only, the one the platform's wallet sends to
   * an exchange account: the same address per account as the Binance dialect's (one account, one
   * address). Another coin or chain is a parameter error (Bybit's code for it is not documented;
   * unverified). docs/venues/bybit.md#endpoints
   */
  app.get('/v5/asset/deposit/query-address', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'read');
    const coin = params.get('coin')?.toUpperCase();
    const chain = params.get('chainType') ?? tronChain.chain;
    if (coin !== USDT || chain !== tronChain.chain) throw bybitError('10001');
    return {
      coin,
      chains: [
        {
          chainType: tronChain.chainType,
          addressDeposit: tronDepositAddress(key.accountId),
          tagDeposit: '',
          chain: tronChain.chain,
          batchReleaseLimit: '-1',
          contractAddress: USDT_TRC20_CONTRACT,
        },
      ],
    };
  });
};
