import { TELEGRAM_DARK_THEME } from '@gridbot/services';

export type TelegramTheme = Record<string, string>;

/** Telegram's light theme as the iOS client sends it (a hint colour of only 2.8:1 on white). */
export const TELEGRAM_LIGHT_THEME: TelegramTheme = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#999999',
  link_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  secondary_bg_color: '#efeff3',
  header_bg_color: '#f8f8f8',
  accent_text_color: '#2481cc',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  subtitle_text_color: '#999999',
  destructive_text_color: '#ff3b30',
};

export const THEMES = { light: TELEGRAM_LIGHT_THEME, dark: TELEGRAM_DARK_THEME } as const;

export type ThemeName = keyof typeof THEMES;

/** A launch URL whose `tgWebAppThemeParams` is the given theme (launch URLs carry the dark one). */
export const withTheme = (launchUrl: string, theme: TelegramTheme): string => {
  const url = new URL(launchUrl);
  const hash = new URLSearchParams(url.hash.slice(1));
  hash.set('tgWebAppThemeParams', JSON.stringify(theme));
  url.hash = hash.toString();
  return url.toString();
};
