import { saveApiKey } from '@gridbot/contracts';
import { checkField, type Problem } from './validation';

const KEYS = saveApiKey.body.shape;

/** API key and secret through the contract's ZApiKeyText (docs/product.md#validation: 50–100 letters and numbers). */
export const apiKeyProblem = (raw: string): Problem | null =>
  checkField(KEYS.apiKey, raw, { format: { key: 'alphanumeric' } });

export const secretKeyProblem = (raw: string): Problem | null =>
  checkField(KEYS.secretKey, raw, { format: { key: 'alphanumeric' } });
