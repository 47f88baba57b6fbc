import { describe, expect, it } from 'vitest';
import { parseLaunchParams } from '../src/telegram/launch';
import { ANDROID_SAFE_AREA, type Insets, safeAreaPadding } from '../src/telegram/safe-area';
import { startTargetOf } from '../src/telegram/start-param';

describe('startapp deep links', () => {
  it.each([
    ['coin_BTC', '/portfolio/show?coin=BTC'],
    ['coin_eth', '/portfolio/show?coin=ETH'],
    ['coin_1INCH', '/portfolio/show?coin=1INCH'],
    ['deposit', '/wallet/deposit'],
    ['withdraw', '/wallet/withdraw'],
    ['transfer', '/wallet/internal-transfer'],
    ['wallet', '/wallet'],
    ['portfolio', '/portfolio'],
    ['partners', '/partners'],
    ['profile', '/profile'],
    ['api_key', '/profile/api-key'],
    ['pnl', '/pnl-stat'],
  ])('%s opens %s', (param, url) => {
    expect(startTargetOf(param)).toBe(url);
  });

  it.each([
    ['a referral', 'ref_abc123'],
    ['an unknown screen', 'settings'],
    ['a coin with a bad symbol', 'coin_BTC-USDT'],
    ['a coin without a symbol', 'coin_'],
    ['a property of every object', 'constructor'],
    ['an empty parameter', ''],
  ])('%s opens nothing', (_what, param) => {
    expect(startTargetOf(param)).toBeNull();
  });

  it('is read from the launch parameters, else from the signed init data', () => {
    const initData = new URLSearchParams({ start_param: 'wallet', hash: 'h' }).toString();
    const launch = (extra: Record<string, string>) =>
      parseLaunchParams(
        new URLSearchParams({
          tgWebAppData: initData,
          tgWebAppVersion: '8.0',
          tgWebAppPlatform: 'ios',
          ...extra,
        }).toString(),
      );
    expect(launch({ tgWebAppStartParam: 'coin_BTC' })?.startParam).toBe('coin_BTC');
    expect(launch({})?.startParam).toBe('wallet');
  });
});

describe('safe area', () => {
  const none: Insets = { top: 0, bottom: 0, left: 0, right: 0 };
  const inset = (top: number, bottom: number): Insets => ({ ...none, top, bottom });

  it('uses what Telegram reports, on Android too', () => {
    const reported = { safe: inset(24, 20), content: inset(46, 0), fullscreen: true };
    expect(safeAreaPadding('android', reported)).toEqual({ top: 70, bottom: 20 });
    expect(safeAreaPadding('ios', reported)).toEqual({ top: 70, bottom: 20 });
  });

  it("falls back to Android's fixed 23/16 px only when nothing is reported", () => {
    const nothing = { safe: none, content: none, fullscreen: true };
    expect(safeAreaPadding('android', nothing)).toEqual(ANDROID_SAFE_AREA);
    expect(safeAreaPadding('android_x', nothing)).toEqual({ top: 23, bottom: 16 });
    expect(safeAreaPadding('ios', nothing)).toEqual({ top: 0, bottom: 0 });
  });

  it("counts the top only in fullscreen, where Telegram's header no longer sits above the page", () => {
    const reported = { safe: inset(24, 34), content: inset(46, 0), fullscreen: false };
    expect(safeAreaPadding('ios', reported)).toEqual({ top: 0, bottom: 34 });
    expect(safeAreaPadding('android', reported)).toEqual({ top: 0, bottom: 34 });
  });
});
