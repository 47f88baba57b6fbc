import { createHmac } from 'node:crypto';

/** Binance's JSON as tests read it, field by field. */
// biome-ignore lint/suspicious/noExplicitAny: assertions check the shape; a static type would only repeat them
export type BinanceJson = any;

export type Credentials = { apiKey: string; secret: string };

export type SignedOptions = {
  /** Override the timestamp (ms) to test the recvWindow rules. */
  timestamp?: number;
  /** Sign with this secret instead of the key's own. */
  signWith?: string;
  /** Leave the API key header out. */
  noKey?: boolean;
};

/**
 * A Binance SIGNED request built by hand (as Binance documents it): parameters + timestamp,
 * HMAC-SHA256 hex signature appended; in the query for GET/DELETE, in a form body for POST.
 */
export const signed = async (
  baseUrl: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  creds: Credentials,
  params: Record<string, string> = {},
  options: SignedOptions = {},
): Promise<{ status: number; body: BinanceJson }> => {
  const query = new URLSearchParams({
    ...params,
    timestamp: String(options.timestamp ?? Date.now()),
  }).toString();
  const signature = createHmac('sha256', options.signWith ?? creds.secret)
    .update(query)
    .digest('hex');
  const payload = `${query}&signature=${signature}`;
  const headers: Record<string, string> = options.noKey ? {} : { 'X-MBX-APIKEY': creds.apiKey };
  const isPost = method === 'POST';
  if (isPost) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(`${baseUrl}${path}${isPost ? '' : `?${payload}`}`, {
    method,
    headers,
    body: isPost ? payload : undefined,
  });
  return { status: response.status, body: await response.json() };
};

export const publicGet = async (
  baseUrl: string,
  path: string,
  params: Record<string, string> = {},
): Promise<{ status: number; body: BinanceJson }> => {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`${baseUrl}${path}${query ? `?${query}` : ''}`);
  return { status: response.status, body: await response.json() };
};

/** A limit order's parameters as Binance takes them. */
export const limitOrder = (
  symbol: string,
  side: 'BUY' | 'SELL',
  quantity: string,
  price: string,
  id?: string,
) => ({
  symbol,
  side,
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity,
  price,
  ...(id ? { newClientOrderId: id } : {}),
});

/**
 * Pools count in fixed windows: a test that fills one starts at least 3 s before the window's end,
 * so that no new window empties the pool halfway.
 */
export const clearOfWindowEnd = async (windowMs: number) => {
  const left = windowMs - (Date.now() % windowMs);
  if (left < 3000) await new Promise((resolve) => setTimeout(resolve, left + 50));
};
