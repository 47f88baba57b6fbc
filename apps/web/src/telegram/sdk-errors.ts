/** The Telegram SDK failures of docs/errors.md, as message keys under `sdk.` in the translations. */
export type SdkFailure =
  | 'unsupported'
  | 'outsideTelegram'
  | 'invalidArguments'
  | 'concurrentCall'
  | 'accessDenied'
  | 'unknown';

/**
 * The SDK's error classes by the names they give their errors (FunctionUnavailableError is
 * "FunctionNotAvailableError"): read without importing the SDK, which the first screen must not
 * load (docs/performance.md#web).
 */
const FAILURE_BY_ERROR_NAME: Record<string, SdkFailure> = {
  FunctionNotAvailableError: 'unsupported',
  MethodUnsupportedError: 'unsupported',
  LaunchParamsRetrieveError: 'outsideTelegram',
  InvalidArgumentsError: 'invalidArguments',
  ConcurrentCallError: 'concurrentCall',
  AccessDeniedError: 'accessDenied',
};

export const sdkFailureOf = (error: unknown): SdkFailure =>
  (error instanceof Error && Object.hasOwn(FAILURE_BY_ERROR_NAME, error.name)
    ? FAILURE_BY_ERROR_NAME[error.name]
    : undefined) ?? 'unknown';

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
