import { createHmac } from 'node:crypto';

/**
 * The signature of a SIGNED WebSocket API request with an HMAC key: HMAC-SHA256, hex, of the
 * parameters sorted by name as `name=value&…` (web-socket-api.md "SIGNED request example (HMAC)").
 */
export const signWsApiParams = (params: Record<string, string | number>, secret: string): string => {
  const payload = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHmac('sha256', secret).update(payload).digest('hex');
};
