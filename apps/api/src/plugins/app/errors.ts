import {
  type ErrorBody,
  type ErrorCode,
  errorCatalogue,
  fillDetail,
  isCataloguedError,
  type Language,
} from '@gridbot/contracts';
import { AppError, getUserLanguage, sessionUserExists } from '@gridbot/services';
import type { FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Classified = { code: ErrorCode; status: number; issues?: ErrorBody['issues']; until?: Date };

const zodLocales = { en: z.locales.en(), ru: z.locales.ru(), cn: z.locales.zhCN() };

/** The request's language: the signed-in user's stored choice (when `stored`), else Accept-Language, else en. */
const languageOf = async (request: FastifyRequest, stored = true): Promise<Language> => {
  if (stored && request.session) {
    try {
      return await getUserLanguage(request.server.deps.ctx, { userId: request.session.userId });
    } catch {
      return 'en';
    }
  }
  return headerLanguage(request.headers['accept-language']);
};

/** The language an Accept-Language header asks for first, among ours (en by default). */
export const headerLanguage = (header: string | undefined): Language => {
  const first = (header ?? '').toLowerCase();
  if (first.startsWith('ru')) return 'ru';
  if (first.startsWith('zh') || first.startsWith('cn')) return 'cn';
  return 'en';
};

export const classify = (error: FastifyError | Error, language: Language): Classified => {
  // Every package's typed error (services, ledger, exchange, domain) names its catalogue code.
  if (isCataloguedError(error)) {
    const code = error.catalogueCode;
    return {
      code,
      status: errorCatalogue[code].status,
      ...(error.issues ? { issues: error.issues } : {}),
      ...(error.until ? { until: error.until } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((item) => {
      const path = item.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const raw = { ...item.params, code: item.keyword, path: path.split('.'), message: item.message };
      const localized = language === 'en' ? undefined : zodLocales[language].localeError(raw as never);
      const message = typeof localized === 'string' ? localized : (localized?.message ?? item.message ?? '');
      return { path: `${error.validationContext ?? 'body'}${path ? `.${path}` : ''}`, message };
    });
    return { code: 'VALIDATION', status: 400, issues };
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 413) return { code: 'PAYLOAD_TOO_LARGE', status };
  if (status === 404) return { code: 'NOT_FOUND', status };
  if (status === 429) return { code: 'RATE_LIMITED', status };
  // Malformed JSON, wrong content type, empty body: the input's fault, not the server's.
  if (status >= 400 && status < 500) {
    return { code: 'VALIDATION', status, issues: [{ path: 'request', message: error.message }] };
  }
  return { code: 'INTERNAL', status: 500 };
};

/** An instant as the server writes it in a sentence: `2026-11-29 14:05 UTC` (the client shows local time). */
const utcMinute = (instant: Date) => `${instant.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const errorBody = (classified: Classified, language: Language): ErrorBody => {
  const entry = errorCatalogue[classified.code];
  const first = classified.issues?.[0];
  const detail =
    first && classified.code === 'VALIDATION'
      ? `${entry.detail[language]} ${first.path}: ${first.message}`
      : fillDetail(entry.detail[language], classified.until, utcMinute);
  return {
    error: true,
    status: classified.status,
    code: classified.code,
    message: entry.message,
    detail,
    ...(classified.issues ? { issues: classified.issues } : {}),
    ...(classified.until ? { until: classified.until.toISOString() } : {}),
  };
};

/**
 * A correctly signed session naming a user this database does not have fails deep in a service
 * (a foreign key, a missing row): the token is at fault, not the server. Asked only on failure, so
 * valid requests keep verifying tokens without a database read.
 */
const sessionOfNobody = async (request: FastifyRequest) => {
  if (!request.session) return false;
  try {
    return !(await sessionUserExists(request.server.deps.ctx, { userId: request.session.userId }));
  } catch {
    return false;
  }
};

/** One mapping from every failure to the shared error body (docs/errors.md#package-errors: mapped once). */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      // A refused flood must not cost a database read per request: 429 answers by Accept-Language.
      const rateLimited = error instanceof AppError && error.code === 'RATE_LIMITED';
      const language = await languageOf(request, !rateLimited);
      let classified = classify(error, language);
      if (classified.code === 'INTERNAL' && (await sessionOfNobody(request))) {
        classified = { code: 'UNAUTHORIZED', status: 401 };
      }
      if (classified.status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: classified.code, status: classified.status }, 'request refused');
      return reply.status(classified.status).send(errorBody(classified, language));
    });
    app.setNotFoundHandler(async (request, reply) => {
      const language = await languageOf(request);
      return reply.status(404).send(errorBody({ code: 'NOT_FOUND', status: 404 }, language));
    });
  },
  { name: 'errors' },
);
