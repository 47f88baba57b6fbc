import { createHmac } from 'node:crypto';
import { ZTransactionType } from '@gridbot/contracts';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { AppError } from '../errors';

/** How long a download link works (docs/security.md#download-links). */
export const EXPORT_LINK_TTL_S = 300;

const ISSUER = 'gridbot';
const AUDIENCE = 'gridbot:export-download';

/** Which file an export is: what a link names and what a download serves. */
export const ZExportRequest = z.discriminatedUnion('file', [
  z.strictObject({ file: z.literal('deals'), coinBotId: z.number().int().positive().optional() }),
  z.strictObject({ file: z.literal('pnl_daily'), by: z.enum(['day', 'coin']) }),
  z.strictObject({ file: z.literal('wallet'), type: ZTransactionType.optional() }),
]);
export type ExportRequest = z.output<typeof ZExportRequest>;

export type DownloadClaims = { userId: number; uid: number; request: ExportRequest };
export type VerifiedDownload = DownloadClaims & { issuedAtMs: number };

/**
 * Download link tokens (docs/security.md#download-links): HS256 JWTs of their own kind — signed
 * with a key derived from JWT_SECRET for this purpose alone (so a session token is never a link
 * and a link never a session), with their own audience, naming the user and the one file, valid
 * EXPORT_LINK_TTL_S. Times come from the caller's clock, so tests can let a link expire.
 */
export const createDownloadTokens = (secret: string) => {
  const key = createHmac('sha256', secret).update('gridbot export download links').digest();
  return {
    issue: async (claims: DownloadClaims, now: Date) => {
      const iat = now.getTime() / 1000;
      const exp = Math.floor(iat) + EXPORT_LINK_TTL_S;
      const token = await new SignJWT({ uid: claims.uid, export: claims.request })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: new Date(exp * 1000) };
    },
    verify: async (token: string, now: Date): Promise<VerifiedDownload> => {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.uid !== 'number') throw new Error('claims');
        const request = ZExportRequest.parse(payload.export);
        return { userId, uid: payload.uid, request, issuedAtMs: Math.round((payload.iat as number) * 1000) };
      } catch {
        throw new AppError('EXPORT_LINK_INVALID');
      }
    },
  };
};

export type DownloadTokens = ReturnType<typeof createDownloadTokens>;
