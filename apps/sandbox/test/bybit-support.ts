import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';
import type { SandboxExchangeHandle } from '../src/index';

/** Helpers the Bybit dialect's tests share (not a test file). */

export type Credentials = { apiKey: string; secret: string };

/** Bybit's envelope, loosely: the fields these tests read. */
export type Envelope = {
  retCode: number;
  retMsg: string;
  result: { list: Record<string, unknown>[]; nextPageCursor?: string } & Record<string, unknown>;
};

/** ccxt's bybit with every REST base pointed at the sandbox's Bybit dialect. */
export const ccxtBybit = (sandbox: SandboxExchangeHandle, credentials?: Credentials) => {
  const exchange = new ccxt.bybit({ ...credentials, options: { defaultType: 'spot' } });
  const url = sandbox.bybitUrl;
  exchange.urls.api = { spot: url, futures: url, v2: url, public: url, private: url };
  return exchange;
};

/** A signed v5 request made by hand (guide.mdx "Authentication"). */
export const signedRequest = async (
  sandbox: SandboxExchangeHandle,
  method: 'GET' | 'POST',
  path: string,
  credentials: Credentials,
  params: Record<string, string>,
) => {
  const timestamp = String(Date.now());
  const recvWindow = '5000';
  const payload = method === 'GET' ? new URLSearchParams(params).toString() : JSON.stringify(params);
  const sign = createHmac('sha256', credentials.secret)
    .update(`${timestamp}${credentials.apiKey}${recvWindow}${payload}`)
    .digest('hex');
  const response = await fetch(`${sandbox.bybitUrl}${path}${method === 'GET' ? `?${payload}` : ''}`, {
    method,
    headers: {
      'X-BAPI-API-KEY': credentials.apiKey,
      'X-BAPI-TIMESTAMP': timestamp,
      'X-BAPI-RECV-WINDOW': recvWindow,
      'X-BAPI-SIGN': sign,
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: payload } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
};
