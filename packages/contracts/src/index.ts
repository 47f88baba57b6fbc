/**
 * @gridbot/contracts: every endpoint of the API as a zod contract (see README.md).
 */

export * from './auth/login';
export * from './auth/logout-all';
export * from './auth/sign-in-telegram';
export * from './config/get-app-config';
export * from './config/get-config';
export * from './config/set-config';
export * from './core';
export * from './demo/get-launch-data';
export * from './errors';
export * from './export/create-export-link';
export * from './export/download-daily-pnl';
export * from './export/download-deals';
export * from './export/download-export';
export * from './export/download-wallet-history';
export * from './export/export-files';
export * from './home/check-keys';
export * from './home/get-coin-rating';
export * from './home/get-daily-coins-pnl';
export * from './home/get-panel';
export * from './home/list-daily-pnl';
export * from './home/list-monthly-pnl';
export * from './home/pause-trading';
export * from './home/start-trading';
export * from './home/trading-state';
export * from './partners/get-matching-bonus-detail';
export * from './partners/get-network-expansion';
export * from './partners/get-partner-profile';
export * from './partners/get-partners-overview';
export * from './partners/get-referral-bonus-detail';
export * from './partners/get-referral-link';
export * from './partners/get-rewards';
export * from './partners/get-structure';
export * from './partners/list-matching-bonus-history';
export * from './partners/list-my-partners';
export * from './partners/list-referral-bonus-history';
export * from './partners/partner';
export * from './periods';
export * from './portfolio/activate-coins';
export * from './portfolio/add-coin';
export * from './portfolio/backtest-coin';
export * from './portfolio/coin-bot';
export * from './portfolio/coin-settings';
export * from './portfolio/deal-commands';
export * from './portfolio/delete-coin';
export * from './portfolio/edit-coin-settings';
export * from './portfolio/get-coin';
export * from './portfolio/get-coin-chart';
export * from './portfolio/get-portfolio';
export * from './portfolio/get-profit-chart';
export * from './portfolio/list-addable-coins';
export * from './portfolio/list-coin-activity';
export * from './portfolio/list-coin-trades';
export * from './portfolio/reset-coin-settings';
export * from './portfolio/set-coin-status';
export * from './portfolio/set-dry-all';
export * from './profile/exchange-keys';
export * from './profile/get-profile';
export * from './profile/license';
export * from './profile/notification-settings';
export * from './profile/renew-license';
export * from './profile/save-api-key';
export * from './profile/update-license';
export * from './profile/update-notifications';
export * from './wallet/add-withdraw-address';
export * from './wallet/create-wallet';
export * from './wallet/find-recipient';
export * from './wallet/freeze-withdrawals';
export * from './wallet/get-deposit-address';
export * from './wallet/get-wallet';
export * from './wallet/lift-freeze';
export * from './wallet/send-internal-transfer';
export * from './wallet/top-up-fee-balance';
export * from './wallet/transaction';
export * from './wallet/update-withdraw-address';
export * from './wallet/withdraw-money';
export * from './wallet/withdrawal';

import { login } from './auth/login';
import { logoutAll } from './auth/logout-all';
import { signInTelegram } from './auth/sign-in-telegram';
import { getAppConfig } from './config/get-app-config';
import { getConfig } from './config/get-config';
import { setConfig } from './config/set-config';
import { getLaunchData } from './demo/get-launch-data';
import { createExportLink } from './export/create-export-link';
import { downloadDailyPnl } from './export/download-daily-pnl';
import { downloadDeals } from './export/download-deals';
import { downloadExport } from './export/download-export';
import { downloadWalletHistory } from './export/download-wallet-history';
import { checkKeys } from './home/check-keys';
import { getCoinRating } from './home/get-coin-rating';
import { getDailyCoinsPnl } from './home/get-daily-coins-pnl';
import { getPanel } from './home/get-panel';
import { listDailyPnl } from './home/list-daily-pnl';
import { listMonthlyPnl } from './home/list-monthly-pnl';
import { pauseTrading } from './home/pause-trading';
import { startTrading } from './home/start-trading';
import { getMatchingBonusDetail } from './partners/get-matching-bonus-detail';
import { getNetworkExpansion } from './partners/get-network-expansion';
import { getPartnerProfile } from './partners/get-partner-profile';
import { getPartnersOverview } from './partners/get-partners-overview';
import { getReferralBonusDetail } from './partners/get-referral-bonus-detail';
import { getReferralLink } from './partners/get-referral-link';
import { getRewards } from './partners/get-rewards';
import { getStructure } from './partners/get-structure';
import { listMatchingBonusHistory } from './partners/list-matching-bonus-history';
import { listMyPartners } from './partners/list-my-partners';
import { listReferralBonusHistory } from './partners/list-referral-bonus-history';
import { activateCoins } from './portfolio/activate-coins';
import { addCoin } from './portfolio/add-coin';
import { backtestCoin } from './portfolio/backtest-coin';
import {
  cancelPendingBuy,
  closeAllDeals,
  listDealCommands,
  quoteDealSale,
  sellDeal,
} from './portfolio/deal-commands';
import { deleteCoin } from './portfolio/delete-coin';
import { editCoinSettings } from './portfolio/edit-coin-settings';
import { getCoin } from './portfolio/get-coin';
import { getCoinChart } from './portfolio/get-coin-chart';
import { getPortfolio } from './portfolio/get-portfolio';
import { getProfitChart } from './portfolio/get-profit-chart';
import { listAddableCoins } from './portfolio/list-addable-coins';
import { listCoinActivity } from './portfolio/list-coin-activity';
import { listCoinTrades } from './portfolio/list-coin-trades';
import { resetCoinSettings } from './portfolio/reset-coin-settings';
import { setCoinStatus } from './portfolio/set-coin-status';
import { setDryAll } from './portfolio/set-dry-all';
import { getProfile } from './profile/get-profile';
import { renewLicense } from './profile/renew-license';
import { saveApiKey } from './profile/save-api-key';
import { updateLicense } from './profile/update-license';
import { updateNotifications } from './profile/update-notifications';
import { addWithdrawAddress } from './wallet/add-withdraw-address';
import { createWallet } from './wallet/create-wallet';
import { findRecipient } from './wallet/find-recipient';
import { freezeWithdrawals } from './wallet/freeze-withdrawals';
import { getDepositAddress } from './wallet/get-deposit-address';
import { getWallet } from './wallet/get-wallet';
import { liftFreeze } from './wallet/lift-freeze';
import { sendInternalTransfer } from './wallet/send-internal-transfer';
import { topUpFeeBalance } from './wallet/top-up-fee-balance';
import { updateWithdrawAddress } from './wallet/update-withdraw-address';
import { withdrawMoney } from './wallet/withdraw-money';

/** Every contract of the API, grouped by area. The server registers exactly these. */
export const endpoints = [
  login,
  signInTelegram,
  logoutAll,
  getConfig,
  setConfig,
  getAppConfig,
  getLaunchData,
  checkKeys,
  getCoinRating,
  getDailyCoinsPnl,
  getPanel,
  listDailyPnl,
  listMonthlyPnl,
  pauseTrading,
  startTrading,
  activateCoins,
  addCoin,
  deleteCoin,
  editCoinSettings,
  getCoin,
  getPortfolio,
  getProfitChart,
  listAddableCoins,
  listCoinActivity,
  listCoinTrades,
  resetCoinSettings,
  setCoinStatus,
  setDryAll,
  getMatchingBonusDetail,
  getNetworkExpansion,
  getPartnerProfile,
  getPartnersOverview,
  getReferralBonusDetail,
  getReferralLink,
  getRewards,
  getStructure,
  listMatchingBonusHistory,
  listMyPartners,
  listReferralBonusHistory,
  addWithdrawAddress,
  createWallet,
  findRecipient,
  freezeWithdrawals,
  getDepositAddress,
  getWallet,
  liftFreeze,
  sendInternalTransfer,
  topUpFeeBalance,
  updateWithdrawAddress,
  withdrawMoney,
  getProfile,
  renewLicense,
  saveApiKey,
  updateLicense,
  updateNotifications,
  backtestCoin,
  getCoinChart,
  createExportLink,
  downloadDeals,
  downloadDailyPnl,
  downloadWalletHistory,
  downloadExport,
  sellDeal,
  closeAllDeals,
  cancelPendingBuy,
  listDealCommands,
  quoteDealSale,
] as const;

export type AnyEndpoint = (typeof endpoints)[number];
export type EndpointId = AnyEndpoint['id'];

/** Contracts by id, typed: `endpointsById['wallet.getWallet']` is the wallet contract. */
export const endpointsById = Object.fromEntries(endpoints.map((endpoint) => [endpoint.id, endpoint])) as {
  [E in AnyEndpoint as E['id']]: E;
};
