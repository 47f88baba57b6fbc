import { jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors';

export const SESSION_TTL_S = 86_400;

export type SessionClaims = { userId: number; uid: number };

/** Bearer JWTs (HS256, 1 day). Stateless so any API replica can verify them. */
export const createSessionTokens = (secret: string) => {
  const key = new TextEncoder().encode(secret);
  return {
    issue: async (claims: SessionClaims, now: Date = new Date()) => {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ uid: claims.uid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer('gridbot')
        .setIssuedAt(iat)
        .setExpirationTime(iat + SESSION_TTL_S)
        .sign(key);
      return { token, expiresAt: new Date((iat + SESSION_TTL_S) * 1000) };
    },
    verify: async (token: string): Promise<SessionClaims> => {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: 'gridbot', algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.uid !== 'number') throw new Error('claims');
        return { userId, uid: payload.uid };
      } catch {
        throw new AppError('UNAUTHORIZED');
      }
    },
  };
};

export type SessionTokens = ReturnType<typeof createSessionTokens>;
