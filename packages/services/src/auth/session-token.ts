import { jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors';

export const SESSION_TTL_S = 86_400;

export type SessionClaims = { userId: number; uid: number };

/** A verified session: its claims and when it was issued (ms), which "end all sessions" compares. */
export type VerifiedSession = SessionClaims & { issuedAtMs: number };

/**
 * Bearer JWTs (HS256, 1 day). The signature is checked without a database read; whether the
 * account still accepts the session (not deleted, not blocked, not ended) is `checkSessionUser`.
 * `iat` carries milliseconds (a NumericDate may be fractional, RFC 7519 §2), so a session issued
 * right after "end all sessions" is told apart from the ones it ended.
 */
export const createSessionTokens = (secret: string) => {
  const key = new TextEncoder().encode(secret);
  return {
    issue: async (claims: SessionClaims, now: Date = new Date()) => {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ uid: claims.uid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer('gridbot')
        .setIssuedAt(now.getTime() / 1000)
        .setExpirationTime(iat + SESSION_TTL_S)
        .sign(key);
      return { token, expiresAt: new Date((iat + SESSION_TTL_S) * 1000) };
    },
    verify: async (token: string): Promise<VerifiedSession> => {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: 'gridbot', algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.uid !== 'number') throw new Error('claims');
        // A token without iat predates every "end all sessions": it counts as issued at 0.
        const issuedAtMs = typeof payload.iat === 'number' ? Math.round(payload.iat * 1000) : 0;
        return { userId, uid: payload.uid, issuedAtMs };
      } catch {
        throw new AppError('UNAUTHORIZED');
      }
    },
  };
};

export type SessionTokens = ReturnType<typeof createSessionTokens>;
