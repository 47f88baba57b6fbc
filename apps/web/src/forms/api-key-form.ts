import { type Exchange, KEY_FORMATS } from '@gridbot/contracts';
import { checkField, type Problem } from './validation';

/**
 * API key, secret (and OKX's passphrase) by the exchange's own format (the contract's KEY_FORMATS;
 * Binance keys by docs/product.md#validation: 50–100 letters and numbers).
 */
export const apiKeyProblem = (raw: string, exchange: Exchange = 'binance'): Problem | null =>
  checkField(KEY_FORMATS[exchange].apiKey, raw, {
    format: { key: exchange === 'okx' ? 'okxApiKey' : 'alphanumeric' },
  });

export const secretKeyProblem = (raw: string, exchange: Exchange = 'binance'): Problem | null =>
  checkField(KEY_FORMATS[exchange].secretKey, raw, {
    format: { key: exchange === 'okx' ? 'okxSecret' : 'alphanumeric' },
  });

export const passphraseProblem = (raw: string, exchange: Exchange): Problem | null => {
  const format = KEY_FORMATS[exchange].passphrase;
  return format ? checkField(format, raw, { format: { key: 'printable' } }) : null;
};
