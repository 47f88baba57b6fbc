import type { SessionClaims, SessionTokens } from '@gridbot/services';
import { SignJWT } from 'jose';
import type { AuthVariant } from './fuzz-request';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT signed with a key that is not the server's. */
const signedElsewhere = (claims: SessionClaims) =>
  new SignJWT({ uid: claims.uid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuer('gridbot')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('not-the-server-key'.repeat(4)));

/** `alg: none`: claims anyone could write, no signature. */
const unsigned = (claims: SessionClaims) => {
  const now = Math.floor(Date.now() / 1000);
  const payload = { uid: claims.uid, sub: String(claims.userId), iss: 'gridbot', iat: now, exp: now + 3600 };
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
};

/** A real token whose claims were rewritten to another user's, signature kept. */
const tampered = (token: string, victim: SessionClaims) => {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
  return `${header}.${base64url({ ...claims, sub: String(victim.userId), uid: victim.uid })}.${signature}`;
};

export type AuthHeaders = (variant: AuthVariant, attacker: SessionClaims) => Promise<string | undefined>;

/**
 * The Authorization header of each auth variant: the attacker's own valid token, or a missing,
 * malformed, expired, foreign-key, unsigned, tampered or oversized one. `unknown-user` is a
 * correctly signed token of a user id the database does not have (a deleted account, a restored
 * backup).
 */
export const forgedTokens = (tokens: SessionTokens, victim: SessionClaims): AuthHeaders => {
  const expiredAt = new Date(Date.now() - 2 * 86_400_000);
  return async (variant, attacker) => {
    switch (variant) {
      case 'attacker':
        return `Bearer ${(await tokens.issue(attacker)).token}`;
      case 'missing':
        return undefined;
      case 'empty-bearer':
        return 'Bearer ';
      case 'basic-scheme':
        return `Basic ${Buffer.from('root:root').toString('base64')}`;
      case 'garbage':
        return 'Bearer a.b.c';
      case 'expired':
        return `Bearer ${(await tokens.issue(attacker, expiredAt)).token}`;
      case 'other-key':
        return `Bearer ${await signedElsewhere(attacker)}`;
      case 'alg-none':
        return `Bearer ${unsigned(victim)}`;
      case 'tampered-claims':
        return `Bearer ${tampered((await tokens.issue(attacker)).token, victim)}`;
      case 'unknown-user':
        return `Bearer ${(await tokens.issue({ userId: 2_000_000_000, uid: 2_000_000_000 })).token}`;
      case 'huge':
        return `Bearer ${'a'.repeat(100_000)}`;
    }
  };
};
