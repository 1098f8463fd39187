import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { AppError, describeZodError, errors } from '../errors.ts';
import { sendStatus } from './reply.ts';

/**
 * Turns every thrown error into a filebrowser-style plain-text reply. Unknown failures are logged
 * with their context and answered with a bare 500 that never carries paths or stacks.
 */
export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    if (error.status >= 500)
      request.log.error({ err: error.cause ?? error }, error.reason ?? error.code);
    return sendStatus(reply, error.status, error.reason);
  }
  if (error instanceof z.core.$ZodError) return sendStatus(reply, 400, describeZodError(error));
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
