import { readFileSync } from 'node:fs';
import type { Env } from '@gridbot/config';

/**
 * Secret VALUES this process knows, scrubbed from every log line it writes (docs/security.md#logs).
 * Redacting by path is not enough: a secret also travels inside error messages, an HTTP client's
 * request config, a URL (`…/bot<token>/getMe`) or an answer that echoes it. So the logger replaces
 * every occurrence of every registered value in the serialized line, whatever field holds it.
 *
 * Two sets: the configured secrets, registered once at start (never forgotten), and secrets opened
 * while running (users' exchange keys), kept for the most recent RUNTIME_LIMIT values so a
 * long-running API that checks many keys does not grow without bound.
 */
export const REDACTED = '[redacted]';

/** Shorter values are not scrubbed: they would eat ordinary words and numbers of every line. */
export const MIN_SECRET_LENGTH = 8;
const RUNTIME_LIMIT = 20_000;
/** Every form is indexed by this many leading characters (MIN_SECRET_LENGTH at most). */
const PREFIX = MIN_SECRET_LENGTH;

const configured = new Set<string>();
const runtime = new Set<string>();
/**
 * Every form (as it may appear in a JSON line) by a hash of its first PREFIX characters, longest
 * first, kept up to date as values come and go (a worker opening thousands of accounts never
 * rebuilds it). A line is scanned once with a rolling hash: one integer lookup per character,
 * whatever the number of secrets.
 */
const index = new Map<number, string[]>();
/** How many registered values have each form (two values may share one). */
const formRefs = new Map<string, number>();

/**
 * The forms a value takes in a JSON log line: as is, JSON-escaped (a password with a quote or a
 * backslash), and percent-encoded (a password inside a URL, a token in a query string).
 */
const formsOf = (value: string): string[] => {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
};

const BASE = 31;
/** BASE^(PREFIX-1) in 32-bit arithmetic: what the character leaving the window weighed. */
const LEAVING = Array.from({ length: PREFIX - 1 }).reduce<number>((power) => Math.imul(power, BASE), 1);

const hashAt = (text: string, start: number): number => {
  let hash = 0;
  for (let k = start; k < start + PREFIX; k += 1) hash = (Math.imul(hash, BASE) + text.charCodeAt(k)) | 0;
  return hash;
};

const indexValue = (value: string, delta: 1 | -1) => {
  for (const form of formsOf(value)) {
    const refs = (formRefs.get(form) ?? 0) + delta;
    const key = hashAt(form, 0);
    if (refs > 0) {
      formRefs.set(form, refs);
      if (refs > 1) continue;
      const list = [...(index.get(key) ?? []), form].sort((a, b) => b.length - a.length);
      index.set(key, list);
    } else {
      formRefs.delete(form);
      const list = (index.get(key) ?? []).filter((other) => other !== form);
      if (list.length > 0) index.set(key, list);
      else index.delete(key);
    }
  }
};

/** A value worth scrubbing, trimmed, or undefined. */
const secretOf = (value: string | undefined | null): string | undefined => {
  const trimmed = value?.trim();
  return trimmed && trimmed.length >= MIN_SECRET_LENGTH ? trimmed : undefined;
};

/**
 * A secret opened while running (a user's exchange API key or secret, docs/security.md#logs): from
 * now on no log line of this process carries it.
 */
export const registerLogSecret = (value: string | undefined | null): void => {
  const secret = secretOf(value);
  if (!secret || configured.has(secret)) return;
  // Seen again: now the most recent.
  if (runtime.delete(secret)) {
    runtime.add(secret);
    return;
  }
  runtime.add(secret);
  indexValue(secret, 1);
  if (runtime.size > RUNTIME_LIMIT) {
    const oldest = runtime.values().next().value as string;
    runtime.delete(oldest);
    indexValue(oldest, -1);
  }
};

/** The password of a postgres:// or redis:// URL, as written in it and decoded. */
const urlPassword = (url: string | undefined): string[] => {
  if (!url) return [];
  try {
    const { password } = new URL(url);
    if (!password) return [];
    return [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
};

const readSecretFile = (path: string | undefined): string | undefined => {
  if (!path) return undefined;
  try {
    // A key file is a line; anything bigger is not a secret we could have configured.
    const text = readFileSync(path, 'utf8');
    return text.length <= 65_536 ? text.trim() : undefined;
  } catch {
    // Unreadable: the code that needs the file reports it; there is nothing to scrub.
    return undefined;
  }
};

/** A comma-separated key list (SECRETS_KEY), each key and the whole. */
const keyList = (value: string | undefined): string[] =>
  value ? [value, ...value.split(',').map((part) => part.trim())] : [];

/** A hex private key as given, without its 0x, and in both cases. */
const hexKey = (value: string | undefined): string[] => {
  if (!value) return [];
  const bare = value.replace(/^0x/i, '');
  return [value, bare, bare.toLowerCase(), bare.toUpperCase()];
};

export type SecretEnv = Partial<
  Pick<
    Env,
    | 'BOT_TOKEN'
    | 'JWT_SECRET'
    | 'TRON_API_KEY'
    | 'DATABASE_URL'
    | 'REDIS_URL'
    | 'SECRETS_KEY'
    | 'SECRETS_KEY_FILE'
    | 'HOT_WALLET_KEY_FILE'
    | 'METRICS_TOKEN'
  >
>;

/**
 * Registers every secret of the configuration (docs/security.md#logs): the bot token and its
 * secret part, JWT_SECRET, TRON_API_KEY, METRICS_TOKEN, the passwords of DATABASE_URL and
 * REDIS_URL, SECRETS_KEY and each of its keys, and the contents of SECRETS_KEY_FILE and
 * HOT_WALLET_KEY_FILE (the other `<NAME>_FILE` secrets arrive here already read by loadEnv).
 * ROOT_REFERRAL_CODE is not one: it is handed out in invite links.
 */
export const registerConfiguredSecrets = (env: SecretEnv): void => {
  const token = env.BOT_TOKEN;
  const values = [
    token,
    token?.slice(token.indexOf(':') + 1),
    env.JWT_SECRET,
    env.TRON_API_KEY,
    env.METRICS_TOKEN,
    ...urlPassword(env.DATABASE_URL),
    ...urlPassword(env.REDIS_URL),
    ...keyList(env.SECRETS_KEY),
    ...keyList(readSecretFile(env.SECRETS_KEY_FILE)),
    ...hexKey(readSecretFile(env.HOT_WALLET_KEY_FILE)),
  ];
  for (const value of values) {
    const secret = secretOf(value);
    if (!secret || configured.has(secret)) continue;
    configured.add(secret);
    // Opened at run time before: the index has it already; it is now never forgotten.
    if (!runtime.delete(secret)) indexValue(secret, 1);
  }
};

/** Tests only: forget every registered secret (each test process starts from nothing). */
export const forgetLogSecrets = (): void => {
  configured.clear();
  runtime.clear();
  index.clear();
  formRefs.clear();
};

/**
 * The Bot API puts the token in the path (`https://api.telegram.org/bot<token>/getMe`): whatever
 * token it is (a demo's, one not configured here), it never reaches a log in that shape.
 */
const BOT_API_PATH = /\/bot\d+:[A-Za-z0-9_-]+/g;

/**
 * A `token` query parameter (a download link's, docs/security.md#download-links) is a credential
 * whatever token it is: the request log's URL, an error quoting it, never show its value.
 */
const TOKEN_PARAMETER = /([?&]token=)[^&#"\s\\]+/g;

/** `text` with every registered secret (in any of its forms) replaced by `[redacted]`. */
export const scrubSecrets = (text: string): string => {
  const withoutBotTokens = text.includes('/bot') ? text.replace(BOT_API_PATH, `/bot${REDACTED}`) : text;
  const scrubbed = withoutBotTokens.includes('token=')
    ? withoutBotTokens.replace(TOKEN_PARAMETER, `$1${REDACTED}`)
    : withoutBotTokens;
  if (index.size === 0 || scrubbed.length < PREFIX) return scrubbed;
  let out = '';
  let copied = 0;
  let i = 0;
  let hash = hashAt(scrubbed, 0);
  for (;;) {
    const hit = index.get(hash)?.find((form) => scrubbed.startsWith(form, i));
    if (hit) {
      out += scrubbed.slice(copied, i) + REDACTED;
      i += hit.length;
      copied = i;
      if (i + PREFIX > scrubbed.length) break;
      hash = hashAt(scrubbed, i);
      continue;
    }
    if (i + PREFIX >= scrubbed.length) break;
    // Slide the window one character: drop scrubbed[i], take scrubbed[i + PREFIX].
    hash =
      (Math.imul((hash - Math.imul(scrubbed.charCodeAt(i), LEAVING)) | 0, BASE) +
        scrubbed.charCodeAt(i + PREFIX)) |
      0;
    i += 1;
  }
  return copied === 0 ? scrubbed : out + scrubbed.slice(copied);
};
