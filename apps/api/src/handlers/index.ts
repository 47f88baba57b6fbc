import type { HandlerMap } from '../types';
import { loginHandler } from './auth/login';
import { logoutAllHandler } from './auth/logout-all';
import { signInTelegramHandler } from './auth/sign-in-telegram';
import { getAppConfigHandler } from './config/get-app-config';
import { getConfigHandler } from './config/get-config';
import { setConfigHandler } from './config/set-config';
import { getLaunchDataHandler } from './demo/get-launch-data';
import { createExportLinkHandler } from './export/create-export-link';
import { downloadDailyPnlHandler } from './export/download-daily-pnl';
import { downloadDealsHandler } from './export/download-deals';
import { downloadExportHandler } from './export/download-export';
import { downloadWalletHistoryHandler } from './export/download-wallet-history';
import { checkKeysHandler } from './home/check-keys';
import { getCoinRatingHandler } from './home/get-coin-rating';
import { getDailyCoinsPnlHandler } from './home/get-daily-coins-pnl';
import { getPanelHandler } from './home/get-panel';
import { listDailyPnlHandler } from './home/list-daily-pnl';
import { listMonthlyPnlHandler } from './home/list-monthly-pnl';
import { pauseTradingHandler } from './home/pause-trading';
import { startTradingHandler } from './home/start-trading';
import { getMatchingBonusDetailHandler } from './partners/get-matching-bonus-detail';
import { getNetworkExpansionHandler } from './partners/get-network-expansion';
import { getPartnerProfileHandler } from './partners/get-partner-profile';
import { getPartnersOverviewHandler } from './partners/get-partners-overview';
import { getReferralBonusDetailHandler } from './partners/get-referral-bonus-detail';
import { getReferralLinkHandler } from './partners/get-referral-link';
import { getRewardsHandler } from './partners/get-rewards';
import { getStructureHandler } from './partners/get-structure';
import { listMatchingBonusHistoryHandler } from './partners/list-matching-bonus-history';
import { listMyPartnersHandler } from './partners/list-my-partners';
import { listReferralBonusHistoryHandler } from './partners/list-referral-bonus-history';
import { activateCoinsHandler } from './portfolio/activate-coins';
import { addCoinHandler } from './portfolio/add-coin';
import { backtestCoinHandler } from './portfolio/backtest-coin';
import { cancelPendingBuyHandler } from './portfolio/cancel-pending-buy';
import { closeAllDealsHandler } from './portfolio/close-all-deals';
import { deleteCoinHandler } from './portfolio/delete-coin';
import { editCoinSettingsHandler } from './portfolio/edit-coin-settings';
import { getCoinHandler } from './portfolio/get-coin';
import { getCoinChartHandler } from './portfolio/get-coin-chart';
import { getPortfolioHandler } from './portfolio/get-portfolio';
import { getProfitChartHandler } from './portfolio/get-profit-chart';
import { listAddableCoinsHandler } from './portfolio/list-addable-coins';
import { listCoinActivityHandler } from './portfolio/list-coin-activity';
import { listCoinTradesHandler } from './portfolio/list-coin-trades';
import { listDealCommandsHandler } from './portfolio/list-deal-commands';
import { quoteDealSaleHandler } from './portfolio/quote-deal-sale';
import { resetCoinSettingsHandler } from './portfolio/reset-coin-settings';
import { sellDealHandler } from './portfolio/sell-deal';
import { setCoinStatusHandler } from './portfolio/set-coin-status';
import { setDryAllHandler } from './portfolio/set-dry-all';
import { getProfileHandler } from './profile/get-profile';
import { renewLicenseHandler } from './profile/renew-license';
import { saveApiKeyHandler } from './profile/save-api-key';
import { updateLicenseHandler } from './profile/update-license';
import { updateNotificationsHandler } from './profile/update-notifications';
import { addWithdrawAddressHandler } from './wallet/add-withdraw-address';
import { createWalletHandler } from './wallet/create-wallet';
import { findRecipientHandler } from './wallet/find-recipient';
import { freezeWithdrawalsHandler } from './wallet/freeze-withdrawals';
import { getDepositAddressHandler } from './wallet/get-deposit-address';
import { getWalletHandler } from './wallet/get-wallet';
import { liftFreezeHandler } from './wallet/lift-freeze';
import { sendInternalTransferHandler } from './wallet/send-internal-transfer';
import { topUpFeeBalanceHandler } from './wallet/top-up-fee-balance';
import { updateWithdrawAddressHandler } from './wallet/update-withdraw-address';
import { withdrawMoneyHandler } from './wallet/withdraw-money';

/**
 * Implemented contracts, one handler file per contract named like it. Every other contract is
 * registered and answers 501 until its issue lands.
 */
export const handlers: HandlerMap = Object.fromEntries([
  getPartnersOverviewHandler,
  listMyPartnersHandler,
  getStructureHandler,
  getPartnerProfileHandler,
  getReferralLinkHandler,
  getRewardsHandler,
  loginHandler,
  signInTelegramHandler,
  logoutAllHandler,
  getConfigHandler,
  setConfigHandler,
  getAppConfigHandler,
  getLaunchDataHandler,
  checkKeysHandler,
  saveApiKeyHandler,
  getProfileHandler,
  updateLicenseHandler,
  renewLicenseHandler,
  updateNotificationsHandler,
  startTradingHandler,
  pauseTradingHandler,
  setCoinStatusHandler,
  setDryAllHandler,
  activateCoinsHandler,
  listDailyPnlHandler,
  listMonthlyPnlHandler,
  getDailyCoinsPnlHandler,
  getCoinRatingHandler,
  getProfitChartHandler,
  getPanelHandler,

  getPortfolioHandler,
  getCoinHandler,
  addCoinHandler,
  listAddableCoinsHandler,
  editCoinSettingsHandler,
  resetCoinSettingsHandler,
  listCoinTradesHandler,
  sellDealHandler,
  closeAllDealsHandler,
  cancelPendingBuyHandler,
  listDealCommandsHandler,
  quoteDealSaleHandler,
  deleteCoinHandler,
  listCoinActivityHandler,

  backtestCoinHandler,
  getCoinChartHandler,

  getWalletHandler,
  createWalletHandler,
  getDepositAddressHandler,
  addWithdrawAddressHandler,
  updateWithdrawAddressHandler,
  withdrawMoneyHandler,
  sendInternalTransferHandler,
  findRecipientHandler,
  topUpFeeBalanceHandler,
  freezeWithdrawalsHandler,
  liftFreezeHandler,

  getReferralBonusDetailHandler,
  listReferralBonusHistoryHandler,
  getMatchingBonusDetailHandler,
  listMatchingBonusHistoryHandler,
  getNetworkExpansionHandler,

  createExportLinkHandler,
  downloadDealsHandler,
  downloadDailyPnlHandler,
  downloadWalletHistoryHandler,
  downloadExportHandler,
]);
