// Sign-up through the fleet from a given loopback source address (127.0.0.x). Sign-in is limited per
// client IP (apps/api/src/routes.ts: 30 a minute), so a benchmark that signs up a few hundred users
// spreads them over addresses, as many phones would; the proxy forwards each one's own address.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { signLaunchData } from '@gridbot/services';
import type { FleetUser } from '../../fleet/fleet-client';
import type { Fleet } from '../../fleet/start-fleet';

export const signUpFrom = (fleet: Fleet, localAddress: string): Promise<FleetUser> => {
  const username = `bench_${randomBytes(5).toString('hex')}`;
  const initData = signLaunchData({
    botToken: fleet.secrets.botToken,
    user: {
      telegramId: BigInt(`0x${randomBytes(5).toString('hex')}`) + 1_000_000n,
      username,
      firstName: 'Bench',
      lastName: null,
    },
    startParam: `ref_${fleet.secrets.rootReferralCode}`,
  });
  const body = JSON.stringify({ _auth: initData });
  const url = new URL('/auth/login', fleet.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200)
            return reject(new Error(`sign-up: ${response.statusCode} ${text}`));
          const session = JSON.parse(text) as { token: string; user: { uid: number } };
          resolve({ token: session.token, uid: session.user.uid, username });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
};
