import { describe, expect, it } from 'vitest';
import { botTexts, notificationText } from '../src/notifications/notification-texts';

const at = '2025-03-01T10:00:00.000Z';
const SUPPORT = 'https://t.me/example_support';

describe('the bot’s texts', () => {
  it('call drying "sell only, buy nothing" in Chinese, never 清仓 (liquidating everything)', () => {
    const texts = [
      notificationText('cn', 'fee_balance_empty', { feeBalanceMicro: '0' }),
      notificationText('cn', 'license_expired', { level: 'PRO1' }),
    ];
    for (const text of texts) {
      expect(text).not.toContain('清仓');
      expect(text).toContain('只卖模式');
      expect(text).toContain('停止买入');
    }
  });

  it('say an English count with its noun in the right form', () => {
    const expiring = (daysLeft: number) =>
      notificationText('en', 'api_key_expiring', { expiresAt: at, daysLeft, ips: [] });
    expect(expiring(1)).toContain('in 1 day, on');
    expect(expiring(3)).toContain('in 3 days, on');
    const daily = (closedTrades: number) =>
      notificationText('en', 'daily_pnl', { date: '2025-03-01', pnl: '1.5', closedTrades, coins: [] });
    expect(daily(1)).toContain('from 1 closed trade.');
    expect(daily(2)).toContain('from 2 closed trades.');
    expect(botTexts.en.frozen(1, at, SUPPORT)).toContain(' 1 withdrawal stopped');
    expect(botTexts.en.frozen(2, at, SUPPORT)).toContain(' 2 withdrawals stopped');
  });

  it("name the exchange whose rule ends a key: Binance's 30 days of spot trading, Bybit's 90 days of an unbound key", () => {
    for (const language of ['en', 'ru', 'cn'] as const) {
      const binance = notificationText(language, 'api_key_expiring', {
        expiresAt: at,
        daysLeft: 2,
        ips: ['203.0.113.7'],
      });
      const bybit = notificationText(language, 'api_key_expiring', {
        expiresAt: at,
        daysLeft: 2,
        ips: ['203.0.113.7'],
        exchange: 'bybit',
      });
      expect(binance).toContain('Binance');
      expect(binance).not.toContain('Bybit');
      expect(bybit).toContain('Bybit');
      expect(bybit).not.toContain('Binance');
      expect(bybit).toContain('90');
      expect(bybit).toContain('203.0.113.7');
      const ended = notificationText(language, 'api_key_expired', {
        expiresAt: at,
        ips: [],
        exchange: 'bybit',
      });
      expect(ended).toContain('Bybit');
      expect(ended).not.toContain('Binance');
    }
  });

  it('give the installation’s support contact where they name support', () => {
    for (const language of ['en', 'ru', 'cn'] as const)
      expect(botTexts[language].frozen(0, at, SUPPORT)).toContain(SUPPORT);
  });

  it('name the daily report’s day a UTC day, as the screens do (docs/pnl.md#days-and-times)', () => {
    const day = { date: '2025-03-01', pnl: '1.5', closedTrades: 2, coins: [] };
    expect(notificationText('en', 'daily_pnl', day)).toContain('Profit on 2025-03-01 (UTC):');
    expect(notificationText('ru', 'daily_pnl', day)).toContain('Прибыль за 2025-03-01 (UTC):');
    expect(notificationText('cn', 'daily_pnl', day)).toContain('2025-03-01（UTC）收益');
  });
});
