import { isIP } from 'node:net';
import type { ServiceContext } from '../context/service-context';

/** Where the addresses come from: the operator's EGRESS_IPS, a discovery, or nowhere (none known). */
export type EgressIps = { ips: string[]; source: 'config' | 'discovered' | 'unknown' };

/** A discovered address is asked again after this long (an installation's IP rarely moves). */
const DISCOVERY_TTL_MS = 3_600_000;
const DISCOVERY_TIMEOUT_MS = 3000;

const discovered = new Map<string, { ip: string; at: number }>();

const askText = async (url: string): Promise<string> => {
  const response = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.text()).trim();
};

/**
 * The sandbox answers the caller's address as it sees it — what its keys' whitelists compare
 * (127.0.0.1 for an installation beside it); elsewhere a plain-text "what is my IP" service.
 */
const discover = async (ctx: ServiceContext): Promise<string | null> => {
  const sandboxUrl = ctx.env.EXCHANGE_MODE === 'sandbox' ? ctx.exchanges.sandboxUrl : undefined;
  const url = sandboxUrl
    ? `${sandboxUrl.replace(/\/$/, '')}/_sandbox/whoami`
    : ctx.env.EGRESS_IP_DISCOVERY_URL;
  if (!url) return null;
  const cached = discovered.get(url);
  if (cached && ctx.clock.now().getTime() - cached.at < DISCOVERY_TTL_MS) return cached.ip;
  const text = await askText(url);
  const ip = sandboxUrl ? ((JSON.parse(text) as { ip?: unknown }).ip as string | undefined) : text;
  if (typeof ip !== 'string' || isIP(ip) === 0) throw new Error(`${url} did not answer an IP address`);
  discovered.set(url, { ip, at: ctx.clock.now().getTime() });
  return ip;
};

/**
 * The public IP address(es) the installation's exchange requests leave from, for users to put on
 * their Binance key's trusted IPs (docs/security.md#exchange-keys): the operator's EGRESS_IPS, or
 * else one address discovered and kept for an hour. A discovery that fails shows none (and is
 * logged): the screen then says the operator has to set them.
 */
export const getEgressIps = async (ctx: ServiceContext): Promise<EgressIps> => {
  if (ctx.env.EGRESS_IPS.length > 0) return { ips: [...ctx.env.EGRESS_IPS], source: 'config' };
  try {
    const ip = await discover(ctx);
    return ip ? { ips: [ip], source: 'discovered' } : { ips: [], source: 'unknown' };
  } catch (error) {
    ctx.log.warn({ err: error }, 'egress IP discovery failed: set EGRESS_IPS');
    return { ips: [], source: 'unknown' };
  }
};
