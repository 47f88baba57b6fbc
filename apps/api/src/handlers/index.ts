import type { HandlerMap } from '../types';
import { loginHandler, signInTelegramHandler } from './auth/sign-in';
import { getConfigHandler, setConfigHandler } from './config/user-config';
import { getLaunchDataHandler } from './demo/get-launch-data';

/** Implemented contracts. Every other contract is registered and answers 501 until its issue lands. */
export const handlers: HandlerMap = Object.fromEntries([
  loginHandler,
  signInTelegramHandler,
  getConfigHandler,
  setConfigHandler,
  getLaunchDataHandler,
]);
