import { Dec } from '../../src/exchange/money';
import { writeSandboxState } from '../../src/exchange/state-file';
import { SandboxExchange } from '../../src/index';

/**
 * Child process of the crash test: writes the exchange's state to argv[2] again and again, the
 * market price counting the writes, and prints each finished write's number. The test kills it
 * with SIGKILL at some moment and checks what the file holds.
 */
const file = process.argv[2]!;
const exchange = new SandboxExchange(
  [
    {
      base: 'BTC',
      quote: 'USDT',
      tickSize: '1',
      stepSize: '0.00001',
      feed: { kind: 'fixed', price: '1' },
      // Thousands of far-away resting orders, beyond what Binance's filters allow one account.
      maxNumOrders: 5000,
      percentPriceBySide: {
        bidMultiplierUp: '5',
        bidMultiplierDown: '0.2',
        askMultiplierUp: '1000000',
        askMultiplierDown: '0.2',
        avgPriceMins: 5,
      },
    },
  ],
  '0.1',
);
const { accountId } = exchange.accounts.createAccount({ balances: { BTC: '100' } });
// A few thousand resting orders make each write long enough to be killed in the middle of one.
for (let i = 0; i < 3000; i++) {
  exchange.placeOrder(accountId, 'BTCUSDT', {
    side: 'SELL',
    type: 'LIMIT',
    clientOrderId: `crash-${i}`,
    price: new Dec('999999'),
    quantity: new Dec('0.01'),
  });
}
for (let seq = 2; ; seq++) {
  exchange.setPrice('BTCUSDT', String(seq * 100));
  writeSandboxState(file, exchange.save());
  process.stdout.write(`${seq}\n`);
}
