import {
  AccessDeniedError,
  ConcurrentCallError,
  FunctionUnavailableError,
  InvalidArgumentsError,
  LaunchParamsRetrieveError,
  MethodUnsupportedError,
} from '@tma.js/sdk-react';
import { describe, expect, it } from 'vitest';
import { sdkFailureOf } from '../src/telegram/sdk-errors';

describe('SDK failures (docs/errors.md), told apart without loading the SDK', () => {
  it.each([
    [new FunctionUnavailableError('not yet'), 'unsupported'],
    [new MethodUnsupportedError('web_app_open_popup', '6.0'), 'unsupported'],
    [new LaunchParamsRetrieveError([]), 'outsideTelegram'],
    [new InvalidArgumentsError('bad'), 'invalidArguments'],
    [new ConcurrentCallError('busy'), 'concurrentCall'],
    [new AccessDeniedError('no'), 'accessDenied'],
    [new Error('anything else'), 'unknown'],
    ['not an error', 'unknown'],
  ])('%s → %s', (error, failure) => {
    expect(sdkFailureOf(error)).toBe(failure);
  });
});
