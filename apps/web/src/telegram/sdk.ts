import type * as SdkParts from './sdk-parts';

export type TelegramSdk = typeof SdkParts;

let loading: Promise<TelegramSdk> | undefined;
let loaded: TelegramSdk | undefined;

/**
 * The Telegram SDK (@tma.js/sdk-react, its own chunk), loaded once. Nothing the first screen runs
 * imports it: evaluating it costs as much as a screen's render on a phone, so the entry starts it
 * after the first render (docs/performance.md#web).
 */
export const loadTelegramSdk = (): Promise<TelegramSdk> => {
  loading ??= import('./sdk-parts').then(
    (sdk) => {
      loaded = sdk;
      return sdk;
    },
    (error: unknown) => {
      // A chunk that failed to load (offline) is asked again next time.
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

/** The SDK if it has loaded: Telegram's native controls exist only once device setup has run it. */
export const loadedTelegramSdk = (): TelegramSdk | undefined => loaded;
