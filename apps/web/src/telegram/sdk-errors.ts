import {
  AccessDeniedError,
  ConcurrentCallError,
  FunctionUnavailableError,
  InvalidArgumentsError,
  LaunchParamsRetrieveError,
  MethodUnsupportedError,
} from '@tma.js/sdk-react';

/** The Telegram SDK failures of docs/errors.md, as message keys under `sdk.` in the translations. */
export type SdkFailure =
  | 'unsupported'
  | 'outsideTelegram'
  | 'invalidArguments'
  | 'concurrentCall'
  | 'accessDenied'
  | 'unknown';

export const sdkFailureOf = (error: unknown): SdkFailure => {
  if (FunctionUnavailableError.is(error) || MethodUnsupportedError.is(error)) return 'unsupported';
  if (LaunchParamsRetrieveError.is(error)) return 'outsideTelegram';
  if (InvalidArgumentsError.is(error)) return 'invalidArguments';
  if (ConcurrentCallError.is(error)) return 'concurrentCall';
  if (AccessDeniedError.is(error)) return 'accessDenied';
  return 'unknown';
};

/** English for the console; users see the translated `sdk.<failure>` text. */
const CONSOLE_TEXT: Record<SdkFailure, string> = {
  unsupported: 'not supported by this Telegram version',
  outsideTelegram: 'launch parameters are unavailable outside Telegram',
  invalidArguments: 'invalid arguments',
  concurrentCall: 'another call of the same method is still running',
  accessDenied: 'access denied by the user or Telegram',
  unknown: 'failed',
};

/**
 * Runs an SDK call that the app can live without (device setup, cosmetics). A failure is reported
 * with a clear message and never breaks the app.
 */
export const trySdk = <T>(label: string, call: () => T): T | undefined => {
  try {
    return call();
  } catch (error) {
    console.warn(`Telegram: ${label}: ${CONSOLE_TEXT[sdkFailureOf(error)]}`);
    return undefined;
  }
};

export const trySdkAsync = async <T>(label: string, call: () => PromiseLike<T>): Promise<T | undefined> => {
  try {
    return await call();
  } catch (error) {
    console.warn(`Telegram: ${label}: ${CONSOLE_TEXT[sdkFailureOf(error)]}`);
    return undefined;
  }
};
