import { describe, expect, it } from 'vitest';
import { parseLaunchParams } from '../src/telegram/launch';
import { isLaunchQuery, queryOfUrl } from '../src/telegram/launch-params';
import { fitPopup, isHexColor, POPUP_LIMITS, popupProblems } from '../src/telegram/popup-params';

describe('popup limits (docs/product.md#validation)', () => {
  it('accepts what Telegram accepts', () => {
    expect(popupProblems({ title: 'T', message: 'M', buttons: [{ id: 'ok', type: 'ok' }] })).toEqual([]);
  });

  it('refuses long titles, empty or long messages, too many buttons and bad button texts', () => {
    expect(popupProblems({ title: 'x'.repeat(65), message: 'm' })).toHaveLength(1);
    expect(popupProblems({ message: '' })).toHaveLength(1);
    expect(popupProblems({ message: 'x'.repeat(257) })).toHaveLength(1);
    const buttons = Array.from({ length: 4 }, (_, index) => ({ id: `b${index}`, text: 'x' }));
    expect(popupProblems({ message: 'm', buttons })).toHaveLength(1);
    expect(popupProblems({ message: 'm', buttons: [{ id: 'x'.repeat(65), text: 'ok' }] })).toHaveLength(1);
    expect(popupProblems({ message: 'm', buttons: [{ id: 'a', text: '' }] })).toHaveLength(1);
    expect(popupProblems({ message: 'm', buttons: [{ id: 'a', text: 'x'.repeat(65) }] })).toHaveLength(1);
  });

  it('fits long translations into the limits', () => {
    const fitted = fitPopup({
      title: 't'.repeat(100),
      message: 'm'.repeat(400),
      buttons: Array.from({ length: 5 }, (_, index) => ({ id: `b${index}`, text: 'x'.repeat(80) })),
    });
    expect(popupProblems(fitted)).toEqual([]);
    expect(fitted.title).toHaveLength(POPUP_LIMITS.titleMax);
  });

  it('checks #rrggbb colours', () => {
    expect(isHexColor('#2481cc')).toBe(true);
    expect(isHexColor('#fff')).toBe(false);
  });
});

describe('launch parameters', () => {
  const initData = new URLSearchParams({
    user: JSON.stringify({ id: 42, first_name: 'Ann', username: 'ann', language_code: 'ru' }),
    hash: 'h',
  }).toString();
  const query = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify({ bg_color: '#17212b' }),
  }).toString();

  it('are read from a URL the way the SDK reads them', () => {
    expect(queryOfUrl(`https://app.test/wallet?x=1#${query}`)).toBe(`x=1&${query}`);
    expect(isLaunchQuery(query)).toBe(true);
    expect(isLaunchQuery('coin=BTC')).toBe(false);
  });

  it('give the raw init data, the user, the platform and the theme', () => {
    const launch = parseLaunchParams(query);
    expect(launch).toMatchObject({
      rawInitData: initData,
      platform: 'android',
      themeParams: { bg_color: '#17212b' },
      user: { id: 42, username: 'ann', language_code: 'ru' },
      demo: false,
    });
    expect(parseLaunchParams('tgWebAppPlatform=ios')).toBeNull();
  });
});
