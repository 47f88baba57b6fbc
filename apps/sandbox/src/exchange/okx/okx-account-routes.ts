import type { FastifyInstance } from 'fastify';
import { accountUid } from '../accounts';
import { tronDepositAddress } from '../routes/capital-routes';
import type { SandboxExchange } from '../sandbox-exchange';
import { accountSnapshot } from './okx-balance';
import { okxError } from './okx-error';
import { okxAuthenticate, okxParams } from './okx-request';

/** The one deposit chain the sandbox serves: USDT on TRON (OKX's chain id "USDT-TRC20"). */
const USDT_TRC20 = 'USDT-TRC20';

/** OKX's signed account and funding endpoints: balances, the key's configuration, coins, deposits. */
export const okxAccountRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  // Trading account › Get balance (okx-balance.ts); `ccy` a comma-separated list of coins.
  app.get('/api/v5/account/balance', async (request) => {
    const { accountId } = okxAuthenticate(exchange, request, 'read');
    const wanted = okxParams(request)
      .get('ccy')
      ?.split(',')
      .map((c) => c.trim().toUpperCase())
      .filter((c) => c !== '');
    return accountSnapshot(exchange, accountId, wanted);
  });

  /**
   * Trading account › Get account configuration: `perm` from the key's permissions (read_only
   * always, withdraw with withdrawals, trade with spot trading), `ip` the bound addresses ("" for
   * none), `acctLv` 1 (spot mode), `uid` the account's. docs/venues/okx.md#keys
   */
  app.get('/api/v5/account/config', async (request) => {
    const key = okxAuthenticate(exchange, request, 'read');
    const { accountId } = key;
    // In the order of ccxt's recorded answer ("read_only,withdraw,trade").
    const perm = [
      'read_only',
      ...(key.permissions.withdrawals ? ['withdraw'] : []),
      ...(key.permissions.spot ? ['trade'] : []),
    ].join(',');
    const uid = String(accountUid(accountId));
    return [
      {
        acctLv: '1',
        acctStpMode: 'cancel_maker',
        autoLoan: false,
        ctIsoMode: 'automatic',
        enableSpotBorrow: false,
        feeType: '0',
        greeksType: 'PA',
        ip: key.ipWhitelist.join(','),
        kycLv: '2',
        label: 'sandbox',
        level: 'Lv1',
        levelTmp: '',
        liquidationGear: '-1',
        mainUid: uid,
        mgnIsoMode: 'automatic',
        opAuth: '0',
        perm,
        posMode: 'net_mode',
        roleType: '0',
        spotBorrowAutoRepay: false,
        spotOffsetType: '',
        spotRoleType: '0',
        spotTraderInsts: [],
        traderInsts: [],
        type: '0',
        uid,
      },
    ];
  });

  /**
   * Funding account › Get currencies: the coins of the listed markets, one chain each ("CCY-CCY"),
   * USDT on TRC20; ccxt's loadMarkets asks for them when it has a key. Nothing is withdrawn here.
   */
  app.get('/api/v5/asset/currencies', async (request) => {
    okxAuthenticate(exchange, request, 'read');
    const coins = [...new Set(exchange.listMarkets().flatMap((s) => [s.market.base, s.market.quote]))].sort();
    return coins.map((ccy) => ({
      burningFeeRate: '',
      canDep: ccy === 'USDT',
      canInternal: false,
      canWd: false,
      ccy,
      chain: ccy === 'USDT' ? USDT_TRC20 : `${ccy}-${ccy}`,
      ctAddr: '',
      depEstOpenTime: '',
      depQuotaFixed: '',
      depQuoteDailyLayer2: '',
      fee: '0',
      logoLink: '',
      mainNet: true,
      maxFee: '0',
      maxFeeForCtAddr: '',
      maxWd: '0',
      minDep: '0.00000001',
      minDepArrivalConfirm: '1',
      minFee: '0',
      minFeeForCtAddr: '',
      minInternal: '0',
      minWd: '0',
      minWdUnlockConfirm: '1',
      name: ccy,
      needTag: false,
      usedDepQuotaFixed: '',
      usedWdQuota: '0',
      wdEstOpenTime: '',
      wdQuota: '0',
      wdTickSz: '8',
    }));
  });

  /**
   * Funding account › Get deposit address: USDT on TRON only, two addresses as OKX lists them — one
   * credited to the funding account (`to` "6", first, as the website selects it) and the account's
   * fixed address (the same one the Binance dialect gives it) credited to the trading account (`to`
   * "18"), where a deposit is tradable at once. Any other coin: 51000 on `ccy`.
   */
  app.get('/api/v5/asset/deposit-address', async (request) => {
    const { accountId } = okxAuthenticate(exchange, request, 'read');
    const ccy = okxParams(request).get('ccy');
    if (!ccy) throw okxError('50014', 'ccy');
    if (ccy.toUpperCase() !== 'USDT') throw okxError('51000', 'ccy');
    const entry = (wallet: 'trading' | 'funding') => ({
      addr: tronDepositAddress(accountId, wallet),
      ccy: 'USDT',
      chain: USDT_TRC20,
      ctAddr: '',
      selected: wallet === 'funding',
      to: wallet === 'funding' ? '6' : '18',
      verifiedName: '',
    });
    return [entry('funding'), entry('trading')];
  });
};
