import ccxt from 'ccxt';
import { startSandboxExchange } from './src/index';

const sb = await startSandboxExchange({});
const { apiKey, secret } = sb.control.createAccount({ balances: { USDT: '1000' } });
const ex = new ccxt.binance({ apiKey, secret, enableRateLimit: true, options: { fetchCurrencies: false, fetchMarkets: { types: ['spot'] }, fetchMargins: false, adjustForTimeDifference: true } });
(ex as any).number = String;
for (const k of ['public', 'private', 'v1', 'sapi', 'sapiV2', 'sapiV3', 'sapiV4']) {
  (ex.urls as any).api[k] = `${sb.url}/${k === 'public' || k === 'private' ? 'api/v3' : k === 'v1' ? 'api/v1' : `sapi/${k === 'sapi' ? 'v1' : k.slice(4).toLowerCase()}`}`;
}
const m = await ex.loadMarkets();
console.log(m['BTC/USDT']?.precision, m['BTC/USDT']?.limits);
console.log(ex.amountToPrecision('BTC/USDT', '0.123456789'), ex.priceToPrecision('BTC/USDT', '60000.123'));
console.log(await ex.fetchTicker('BTC/USDT'));
const o = await ex.createOrder('BTC/USDT', 'market', 'buy', undefined as any, undefined, { cost: '100', clientOrderId: 'abc-1' });
console.log(o);
console.log(await ex.fetchBalance());
const l = await ex.createOrder('BTC/USDT', 'limit', 'buy', '0.001' as any, '59000' as any, { clientOrderId: 'abc-2' });
console.log(l.status, l.price, l.amount);
sb.control.setPrice('BTCUSDT', '58999');
console.log(await ex.fetchOrder(undefined as any, 'BTC/USDT', { clientOrderId: 'abc-2' }));
console.log(await ex.fetchMyTrades('BTC/USDT'));
console.log(await (ex as any).sapiGetAccountApiRestrictions());
try { await ex.cancelOrder('999', 'BTC/USDT'); } catch (e) { console.log(e.constructor.name, e.message); }
await sb.close();
