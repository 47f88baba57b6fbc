/** Which client hosts the page, without the SDK (the first screen asks before it has loaded). */
const isIframe = () => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
};

export const hasTelegramHost = (): boolean =>
  'TelegramWebviewProxy' in window ||
  isIframe() ||
  typeof (window.external as { notify?: unknown } | undefined)?.notify === 'function';

/** Whether a Telegram client hosts the page, as seen before the local answers stood in for one. */
let hostedAtStart: boolean | null = null;

export const rememberHostAtStart = (hosted: boolean): void => {
  hostedAtStart = hosted;
};

/** Inside a real Telegram client (not the page's own stand-in for the demo in a browser). */
export const isInsideTelegram = (): boolean => hostedAtStart ?? hasTelegramHost();
