import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** An 8-character referral code without look-alike characters (~2^39 codes). */
export const newReferralCode = (): string => {
  const bytes = randomBytes(8);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte % ALPHABET.length];
  return code;
};

/** `ref_<code>` from a start parameter (mini app `startapp` or bot `/start` payload). */
export const referralCodeFrom = (startParam: string | null | undefined): string | null => {
  const match = /^ref_([A-Za-z0-9_-]{4,32})$/.exec(startParam ?? '');
  return match?.[1] ?? null;
};

/** Telegram's language_code → the product's language (en default). */
export const productLanguageFor = (languageCode: string | null): 'en' | 'ru' | 'cn' => {
  const code = (languageCode ?? '').toLowerCase();
  if (code.startsWith('ru') || code.startsWith('uk') || code.startsWith('be') || code.startsWith('kk'))
    return 'ru';
  if (code.startsWith('zh')) return 'cn';
  return 'en';
};
