/**
 * What of the SDK the app reaches through `loadTelegramSdk` (src/telegram/sdk.ts): naming the parts
 * keeps the rest of @tma.js/sdk-react out of the bundle, which a dynamic import of the whole
 * package would not.
 */
export {
  backButton,
  closingBehavior,
  downloadFile,
  hapticFeedback,
  mainButton,
  miniApp,
  openLink,
  openTelegramLink,
  popup,
  secondaryButton,
  shareURL,
} from '@tma.js/sdk-react';
