import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';

/** A sandbox key with OKX's three credentials (control.createAccount answers them). */
export type OkxCredentials = { apiKey: string; secret: string; passphrase: string };

/** OKX's envelope, loosely: the fields the tests read. */
export type OkxEnvelope = {
  code: string;
  msg: string;
  data: Record<string, unknown>[];
  inTime?: string;
  outTime?: string;
};

/** ccxt's okx with its REST base pointed at the sandbox's OKX dialect (okx.ts `urls.api.rest`). */
export const ccxtOkx = (url: string, credentials?: OkxCredentials, options: Record<string, unknown> = {}) => {
  const exchange = new ccxt.okx({
    ...(credentials
      ? { apiKey: credentials.apiKey, secret: credentials.secret, password: credentials.passphrase }
      : {}),
    options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] }, ...options },
  });
  exchange.urls.api = { rest: url };
  return exchange;
};

/** ccxt.pro's okx on the sandbox: REST as above, the WebSockets below `<url>/ws/v5`. */
export const ccxtProOkx = (url: string, credentials: OkxCredentials) => {
  const exchange = new ccxt.pro.okx({
    apiKey: credentials.apiKey,
    secret: credentials.secret,
    password: credentials.passphrase,
    options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] } },
  });
  exchange.urls.api = { rest: url, ws: `${url.replace(/^http/, 'ws')}/ws/v5` };
  return exchange;
};

export const okxGet = async (url: string, path: string) => {
  const response = await fetch(`${url}${path}`);
  return { status: response.status, body: (await response.json()) as OkxEnvelope };
};

/** A signed v5 request made by hand (REST authentication), for what the clients cannot send. */
export const okxSigned = async (
  url: string,
  method: 'GET' | 'POST',
  path: string,
  credentials: OkxCredentials,
  body?: unknown,
  options: {
    timestamp?: string;
    sign?: string;
    passphrase?: string;
    headers?: Record<string, string>;
    omit?: string[];
  } = {},
) => {
  const timestamp = options.timestamp ?? new Date().toISOString();
  const text = body === undefined ? '' : JSON.stringify(body);
  const sign =
    options.sign ??
    createHmac('sha256', credentials.secret).update(`${timestamp}${method}${path}${text}`).digest('base64');
  const headers: Record<string, string> = {
    'OK-ACCESS-KEY': credentials.apiKey,
    'OK-ACCESS-SIGN': sign,
    'OK-ACCESS-TIMESTAMP': timestamp,
    'OK-ACCESS-PASSPHRASE': options.passphrase ?? credentials.passphrase,
    ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
    ...options.headers,
  };
  for (const name of options.omit ?? []) delete headers[name];
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(method === 'POST' ? { body: text } : {}),
  });
  return { status: response.status, body: (await response.json()) as OkxEnvelope };
};
