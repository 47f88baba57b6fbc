import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';

export type TelegramUser = {
  id: bigint;
  username: string | null;
  firstName: string;
  lastName: string | null;
  languageCode: string | null;
};

export type VerifiedInitData = {
  user: TelegramUser;
  authDate: Date;
  startParam: string | null;
};

const secretKeyFor = (botToken: string) => createHmac('sha256', 'WebAppData').update(botToken).digest();

/**
 * Verifies Telegram Mini App launch data (docs/security.md): HMAC-SHA256 over the sorted `key=value`
 * lines with key HMAC("WebAppData", bot token), compared in constant time, and `auth_date` no
 * older than `maxAgeS`. Throws AppError INIT_DATA_MISSING / INIT_DATA_INVALID.
 */
export const verifyInitData = (
  raw: string | undefined,
  botToken: string,
  maxAgeS: number,
  now: Date = new Date(),
): VerifiedInitData => {
  if (!raw || raw.trim() === '') throw new AppError('INIT_DATA_MISSING');
  const params = new URLSearchParams(raw);
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/i.test(hash)) throw new AppError('INIT_DATA_INVALID');

  const lines: string[] = [];
  for (const [key, value] of params) {
    if (key !== 'hash') lines.push(`${key}=${value}`);
  }
  lines.sort();
  const expected = createHmac('sha256', secretKeyFor(botToken)).update(lines.join('\n')).digest();
  const given = Buffer.from(hash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('INIT_DATA_INVALID');
  }

  const authDateS = Number(params.get('auth_date'));
  if (!Number.isInteger(authDateS) || authDateS <= 0) throw new AppError('INIT_DATA_INVALID');
  const ageS = now.getTime() / 1000 - authDateS;
  // A small negative age tolerates clock skew; anything in the future beyond that is forged.
  if (ageS > maxAgeS || ageS < -60) throw new AppError('INIT_DATA_INVALID');

  return {
    user: parseUser(params.get('user')),
    authDate: new Date(authDateS * 1000),
    startParam: params.get('start_param'),
  };
};

const parseUser = (json: string | null): TelegramUser => {
  if (!json) throw new AppError('INIT_DATA_INVALID');
  let value: unknown;
  try {
    // Telegram ids exceed 2^53 in theory: read the id from the text, not from the parsed number.
    value = JSON.parse(json);
  } catch {
    throw new AppError('INIT_DATA_INVALID');
  }
  const idText = /"id"\s*:\s*(\d{1,20})/.exec(json)?.[1];
  if (typeof value !== 'object' || value === null || !idText) throw new AppError('INIT_DATA_INVALID');
  const user = value as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return {
    id: BigInt(idText),
    username: text(user.username),
    firstName: text(user.first_name) ?? '',
    lastName: text(user.last_name),
    languageCode: text(user.language_code),
  };
};
