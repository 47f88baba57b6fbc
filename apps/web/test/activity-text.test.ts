import { ACTIVITY_KINDS } from '@gridbot/contracts';
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { createFormatters } from '../src/format/use-format';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { type ActivityEntry, describeActivity } from '../src/screens/portfolio/activity-text';

const translator = async (language: 'en' | 'ru' | 'cn'): Promise<TFunction> => {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { translation: en }, ru: { translation: ru }, cn: { translation: cn } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

const entry = (
  kind: ActivityEntry['kind'],
  data: ActivityEntry['data'],
  actor: ActivityEntry['actor'] = 'engine',
) => ({
  id: '1',
  at: '2025-03-14T09:30:00.000Z',
  kind,
  actor,
  data,
});

describe('activity lines (docs/grid.md#activity-log)', () => {
  it('names the grid order from its key and says what happened to it', async () => {
    const t = await translator('en');
    const format = createFormatters('en-US');
    const line = (kind: ActivityEntry['kind'], data: ActivityEntry['data']) =>
      describeActivity(entry(kind, data), t, format);
    expect(line('order_placed', { key: 'tp:3', side: 'sell', price: '1234.5', qty: '0.01' }).title).toBe(
      'Take profit of lot 3 placed: sell 0.01 at 1,234.5',
    );
    expect(
      line('order_placed', { key: 'entry:1', side: 'buy', price: null, qty: null, quote: '10' }).title,
    ).toBe('Entry buy of lot 1 placed: buy for 10.00 USDT at market');
    expect(line('order_filled', { key: 'buy:2', side: 'buy', price: '99', qty: '0.1' })).toMatchObject({
      title: 'Averaging buy of lot 2 filled: buy 0.1 at 99',
      tone: 'positive',
    });
    expect(
      line('order_cancelled', { key: 'orphan', side: 'buy', price: null, reason: 'orphan' }),
    ).toMatchObject({
      title: 'Order cancelled',
      details: [en.activity.cancelReason.orphan],
    });
  });

  it("shows prices at the coin's tick and quantities at its lot step, zeros kept", async () => {
    const format = createFormatters('ru-RU');
    const market = {
      price: (v: string) => format.price(v, '0.01'),
      qty: (v: string) => format.qty(v, '0.0001'),
    };
    const text = describeActivity(
      entry('order_filled', { key: 'tp:3', side: 'sell', price: '3394.7', qty: '0.02' }),
      await translator('ru'),
      format,
      market,
    );
    expect(text.title).toContain('0,0200');
    expect(text.title).toContain('3\u00a0394,70');
  });

  it("keeps an exchange's refusal word for word, with the exchange's own code before ours", async () => {
    const message = 'binance {"code":-1013,"msg":"Filter failure: NOTIONAL"}';
    const text = describeActivity(
      entry(
        'order_rejected',
        {
          key: 'entry:1',
          side: 'buy',
          code: 'ORDER_BELOW_EXCHANGE_MIN',
          exchangeCode: '-1013',
          message,
          price: null,
        },
        'exchange',
      ),
      await translator('ru'),
      createFormatters('ru-RU'),
    );
    expect(text).toEqual({
      title: 'Ордер входа лота 1 отклонён биржей',
      details: ['Код: -1013'],
      quote: message,
      tone: 'negative',
    });
  });

  it('lists only the settings that changed, old → new, whatever the trailing zeros', async () => {
    const text = describeActivity(
      entry(
        'settings_changed',
        {
          from: { orderSize: '10', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10, dry: false },
          to: { orderSize: '10.00', stepPct: '1.5', stepIncreasePct: '0.10', maxTrades: 10, dry: true },
        },
        'user',
      ),
      await translator('en'),
      createFormatters('en-US'),
    );
    expect(text.details).toEqual(['Step: 1% → 1.5%', 'Drying mode: Off → On']);
  });

  it('tells when the exchange stops and resumes trading the market, with its status', async () => {
    const t = await translator('en');
    const format = createFormatters('en-US');
    const closed = describeActivity(
      entry('market_closed', { symbol: 'XRP/USDT', status: 'HALT' }, 'exchange'),
      t,
      format,
    );
    expect(closed).toMatchObject({
      title: 'The exchange stopped trading XRP/USDT: the bot waits',
      details: ['Exchange status: HALT'],
      tone: 'negative',
    });
    const reopened = describeActivity(
      entry('market_reopened', { symbol: 'XRP/USDT', status: 'TRADING' }, 'exchange'),
      await translator('ru'),
      createFormatters('ru-RU'),
    );
    expect(reopened.title).toBe('Биржа возобновила торги XRP/USDT: бот снова торгует');
  });

  it('tells the deal controls: the request, and how the bot ended it (docs/grid.md#deal-controls)', async () => {
    const t = await translator('en');
    const format = createFormatters('en-US');
    const read = (
      kind: ActivityEntry['kind'],
      data: Record<string, unknown>,
      actor: ActivityEntry['actor'],
    ) => describeActivity(entry(kind, data, actor), t, format);
    expect(
      read('deal_sale_requested', { scope: 'lot', lots: [3], qty: '19.9', price: '0.5' }, 'user').title,
    ).toBe('You asked to sell lot 3 now at market');
    expect(read('deal_sale_requested', { scope: 'all', lots: [1, 2] }, 'user').title).toBe(
      'You asked to close all deals at market (lots 1, 2)',
    );
    expect(read('buy_cancel_requested', { lot: 4, price: '0.97', dry: true }, 'user').title).toBe(
      'You cancelled the pending buy of lot 4: the coin is dry until you set it Active',
    );
    expect(
      read(
        'deal_command_done',
        { kind: 'sell_lot', status: 'done', code: null, pnl: '0.0171', tradeFee: '0.003428' },
        'engine',
      ),
    ).toMatchObject({
      title: 'Your command carried out',
      details: ['PNL +0.02 USDT · platform fee 0.00 USDT'],
      tone: 'positive',
    });
    expect(
      read('deal_command_done', { kind: 'sell_lot', status: 'failed', code: 'MARKET_CLOSED' }, 'engine'),
    ).toMatchObject({
      title: 'Your command was not carried out',
      details: ['Code: MARKET_CLOSED'],
      tone: 'negative',
    });
    expect(
      read(
        'order_placed',
        { key: 'sell:3', side: 'sell', type: 'market', price: null, qty: '19.9' },
        'engine',
      ).title,
    ).toBe('Market sale of lot 3 placed: sell 19.9 at market');
  });

  it('reads every kind without data and never shows a raw key', async () => {
    const t = await translator('cn');
    const format = createFormatters('zh-CN');
    for (const kind of ACTIVITY_KINDS) {
      const text = describeActivity(entry(kind, null), t, format);
      expect(text.title, kind).not.toMatch(/activity\.|undefined|null|\{\{/);
      // Without facts there are none to list (no made-up zeros).
      expect(text.details, kind).toEqual([]);
    }
  });
});
