import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import * as z from 'zod/mini';
import { OIDC_ERROR_PARAM } from '@cabinet/protocol';
import { AppError, describeZodError, errors, OidcError } from '../errors.ts';
import { sendStatus } from './reply.ts';

/** How a route's refusals are written, when not as the API's plain text (see the hooks below). */
interface ErrorBody {
  /**
   * JSON `{ message, code }`; `detailOf` names a finer code the client tells apart
   * (`slug_taken`), where the error carries one.
   */
  json?: { detailOf?: (error: AppError) => string | undefined };
  /** A browser navigation (single sign-on): a failure goes back to this login page, named. */
  loginPage?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    errorBody?: ErrorBody;
  }
}

/**
 * An `onRoute` hook for a plugin whose refusals are JSON `{ message, code }` (the sites area,
 * docs/api.md): the one error handler reads it from the route's config.
 */
export function jsonErrorBodies(detailOf?: (error: AppError) => string | undefined) {
  return (route: RouteOptions): void => {
    route.config = { ...route.config, errorBody: { json: { detailOf } } };
  };
}

/** Route config of a browser navigation whose failures return to the login page (docs/sso.md). */
export function toLoginPage(baseURL: string): { config: { errorBody: ErrorBody } } {
  return { config: { errorBody: { loginPage: `${baseURL}/login` } } };
}

/**
 * The one error channel: turns every thrown error into a filebrowser-style plain-text reply (or
 * the JSON or login page a route asked for above). Unknown failures are logged with their context
 * and answered with a bare 500 that never carries paths or stacks.
 */
export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const body = request.routeOptions.config?.errorBody;
  if (error instanceof OidcError && body?.loginPage) {
    request.log.warn(
      { failure: error.failure, ...whyOf(error.cause) },
      `single sign-on failed: ${error.message}`,
    );
    const login = `${body.loginPage}?${OIDC_ERROR_PARAM}=${encodeURIComponent(error.failure)}`;
    return reply.header('cache-control', 'no-store').redirect(login, 302);
  }
  if (error instanceof AppError) {
    if (error.status >= 500)
      request.log.error({ err: error.cause ?? error }, error.reason ?? error.code);
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    if (body?.json && error.status < 500) {
      const code = body.json.detailOf?.(error) ?? error.code;
      return sendJson(reply, error.status, error.reason, code);
    }
    return sendStatus(reply, error.status, error.reason, error.shown);
  }
  if (error instanceof z.core.$ZodError) {
    const reason = describeZodError(error);
    return body?.json ? sendJson(reply, 400, reason, 'badRequest') : sendStatus(reply, 400, reason);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendStatus(reply, 413);
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendStatus(reply, 415);
  if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return sendStatus(reply, 400, 'empty body');
  if (fastifyError.statusCode === 429) return sendStatus(reply, 429, 'too many requests');
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // Malformed JSON and similar parser failures: say why without echoing internals.
    const reason =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'invalid JSON'
        : undefined;
    return sendStatus(reply, fastifyError.statusCode, reason);
  }
  if (isDatabaseFull(error)) {
    request.log.error({ err: error }, 'the database has no room to write');
    return handleError(errors.diskFull(), request, reply);
  }
  request.log.error(
    { err: error, method: request.method, url: request.routeOptions.url },
    'unhandled error',
  );
  return sendStatus(reply, 500);
}

/** SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100): no room left to write. */
function isDatabaseFull(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === '53100';
}

function sendJson(reply: FastifyReply, status: number, message: string | undefined, code: string) {
  return reply
    .code(status)
    .header('x-content-type-options', 'nosniff')
    .send({ message: message ?? STATUS_CODES[status], code });
}

/**
 * What the log says of a single sign-on failure's cause: openid-client wraps the check that
 * failed, so the chain is walked for the innermost message, the error code and the claim at fault
 * (nonce, exp, aud…), never the claims themselves.
 */
function whyOf(cause: unknown): { cause?: string; code?: string; claim?: string } {
  const why: { cause?: string; code?: string; claim?: string } = {};
  for (let at = cause, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    const { message, code, claim } = at as { message?: unknown; code?: unknown; claim?: unknown };
    if (typeof message === 'string') why.cause = message;
    if (typeof code === 'string') why.code ??= code;
    if (typeof claim === 'string') why.claim ??= claim;
    at = (at as { cause?: unknown }).cause;
  }
  return why;
}
