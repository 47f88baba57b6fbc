import type { DemoLaunchData } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import { sign } from '@tma.js/init-data-node';
import type { ServiceContext } from '../context/service-context';

export type LaunchDataOptions = {
  botToken: string;
  user: Pick<User, 'telegramId' | 'username' | 'firstName' | 'lastName'>;
  startParam?: string;
  languageCode?: string;
  authDate?: Date;
};

/** Signed initData exactly as Telegram would send it (used by the demo and by tests). */
export const signLaunchData = (options: LaunchDataOptions): string =>
  sign(
    {
      user: {
        id: Number(options.user.telegramId),
        first_name: options.user.firstName,
        ...(options.user.lastName ? { last_name: options.user.lastName } : {}),
        username: options.user.username,
        language_code: options.languageCode ?? 'en',
        allows_write_to_pm: true,
      },
      ...(options.startParam ? { start_param: options.startParam } : {}),
      chat_type: 'sender',
      chat_instance: '-1000000000000',
    },
    options.botToken,
    options.authDate ?? new Date(),
  );

/** Theme of a dark Telegram client (demo launch URLs, browser tests): realistic theme parameters. */
export const TELEGRAM_DARK_THEME = {
  bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  secondary_bg_color: '#232e3c',
  header_bg_color: '#17212b',
  accent_text_color: '#6ab2f2',
  section_bg_color: '#17212b',
  section_header_text_color: '#6ab3f3',
  subtitle_text_color: '#708499',
  destructive_text_color: '#ec3942',
};

/** The mini app URL with Telegram launch parameters in its hash (ENVIRONMENT.md). */
export const launchUrl = (baseUrl: string, initData: string, startParam?: string): string => {
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(TELEGRAM_DARK_THEME),
    ...(startParam ? { tgWebAppStartParam: startParam } : {}),
  });
  return `${baseUrl.replace(/\/$/, '')}/#${hash.toString()}`;
};

/** Demo mode: fresh signed launch data for the demo user and the URL opening the app signed in as them. */
export const createDemoLaunchData = (
  ctx: ServiceContext,
  input: { user: LaunchDataOptions['user']; publicUrl: string },
): DemoLaunchData => {
  const initData = signLaunchData({
    botToken: ctx.auth.botToken,
    user: input.user,
    authDate: ctx.clock.now(),
  });
  return { initData, url: launchUrl(input.publicUrl, initData) };
};
