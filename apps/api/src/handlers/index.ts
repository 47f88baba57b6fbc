import type { HandlerMap } from '../types';
import { loginHandler } from './auth/login';
import { signInTelegramHandler } from './auth/sign-in-telegram';
import { getConfigHandler } from './config/get-config';
import { setConfigHandler } from './config/set-config';
import { getLaunchDataHandler } from './demo/get-launch-data';
import { checkKeysHandler } from './home/check-keys';
import { addCoinHandler } from './portfolio/add-coin';
import { deleteCoinHandler } from './portfolio/delete-coin';
import { editCoinSettingsHandler } from './portfolio/edit-coin-settings';
import { getCoinHandler } from './portfolio/get-coin';
import { getPortfolioHandler } from './portfolio/get-portfolio';
import { listAddableCoinsHandler } from './portfolio/list-addable-coins';
import { listCoinActivityHandler } from './portfolio/list-coin-activity';
import { listCoinTradesHandler } from './portfolio/list-coin-trades';
import { resetCoinSettingsHandler } from './portfolio/reset-coin-settings';
import { saveApiKeyHandler } from './profile/save-api-key';

/**
 * Implemented contracts, one handler file per contract named like it. Every other contract is
 * registered and answers 501 until its issue lands.
 */
export const handlers: HandlerMap = Object.fromEntries([
  loginHandler,
  signInTelegramHandler,
  getConfigHandler,
  setConfigHandler,
  getLaunchDataHandler,
  checkKeysHandler,
  saveApiKeyHandler,
  getPortfolioHandler,
  getCoinHandler,
  addCoinHandler,
  listAddableCoinsHandler,
  editCoinSettingsHandler,
  resetCoinSettingsHandler,
  listCoinTradesHandler,
  deleteCoinHandler,
  listCoinActivityHandler,
]);
