import { STATUS_CODES } from 'node:http';
import * as z from 'zod/mini';
import { TWO_FACTOR_HEADER, type OidcFailureCode } from '@cabinet/protocol';

/**
 * The one catalogue of coded errors. Every layer throws these; the error handler turns them into
 * filebrowser-compatible plain-text replies ("403 Forbidden\n", "400 Bad Request (reason)\n").
 */
export const ERROR_CODES = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  gone: 410,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  rangeNotSatisfiable: 416,
  tooManyRequests: 429,
  internal: 500,
  notImplemented: 501,
  insufficientStorage: 507,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export interface AppErrorOptions {
  cause?: unknown;
  /** Headers the reply carries whatever its body (Retry-After, the two-factor header). */
  headers?: Readonly<Record<string, string>>;
  /**
   * The reason is meant for the client at any status (a throttle's wait, a proxy's missing
   * header); by default it is shown only on 400 and 507, as filebrowser does.
   */
  shown?: boolean;
}

/**
 * The one family of coded errors every layer throws. The error handler (http/error-handler.ts)
 * turns them into the API's plain-text replies (JSON `{ message, code }` where a route asks for
 * it), WebDAV's mapper (services/dav/dav-errors.ts) into its replies; no route catches them.
 */
export class AppError extends Error {
  readonly status: number;
  /** Shown to the client only for 400 and 507 replies (as filebrowser does) or when `shown`. */
  readonly reason: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly shown: boolean;
  constructor(
    readonly code: ErrorCode,
    reason?: string,
    options: AppErrorOptions = {},
  ) {
    super(reason ?? code, { cause: options.cause });
    this.status = ERROR_CODES[code];
    this.reason = reason;
    this.headers = options.headers ?? {};
    this.shown = options.shown ?? false;
  }
}

/** An address or a username used up its attempts: a 429 that says when to try again. */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('tooManyRequests', `too many attempts, try again in ${retryAfterSeconds} s`, {
      headers: { 'retry-after': String(retryAfterSeconds) },
      shown: true,
    });
  }
}

/**
 * A sign-in or enrolment step needs another try: no code was sent, or the code was wrong or
 * already used. A 401 at login, a 403 where the session is fine (enrolment, turning it off); the
 * header tells Cabinet's pages to ask for the code.
 */
export class TwoFactorError extends AppError {
  constructor(
    readonly kind: 'required' | 'invalid',
    code: 'unauthorized' | 'forbidden' = 'unauthorized',
  ) {
    super(code, kind === 'required' ? 'two-factor code required' : 'wrong two-factor code', {
      headers: { [TWO_FACTOR_HEADER]: kind },
      shown: true,
    });
  }
}

/**
 * Why a single sign-on failed, as the login page names it (`?sso_error=`): never the provider's
 * own words, which a crafted link could fill with anything. The error handler answers it on the
 * browser's redirects with the login page and the failure named (http/error-handler.ts).
 */
export class OidcError extends AppError {
  constructor(
    readonly failure: OidcFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(failure === 'unavailable' ? 'internal' : 'badRequest', message, options);
  }
}

/** Shorthands so call sites read as sentences: `throw errors.forbidden()`. */
export const errors = {
  badRequest: (reason?: string) => new AppError('badRequest', reason),
  unauthorized: (reason?: string) => new AppError('unauthorized', reason),
  forbidden: (reason?: string) => new AppError('forbidden', reason),
  notFound: (reason?: string) => new AppError('notFound', reason),
  methodNotAllowed: () => new AppError('methodNotAllowed'),
  conflict: (reason?: string) => new AppError('conflict', reason),
  gone: (reason?: string) => new AppError('gone', reason),
  payloadTooLarge: (reason?: string) => new AppError('payloadTooLarge', reason),
  unsupportedMediaType: () => new AppError('unsupportedMediaType'),
  tooManyRequests: (reason?: string) => new AppError('tooManyRequests', reason),
  internal: (reason?: string, cause?: unknown) => new AppError('internal', reason, { cause }),
  /** A 401 whose reason the client reads (what a misconfigured proxy failed to send). */
  unauthorizedBecause: (reason: string) => new AppError('unauthorized', reason, { shown: true }),
  notImplemented: (reason?: string) => new AppError('notImplemented', reason),
  /** A write over the user's quota; the reason (quota and usage in words) is always shown. */
  insufficientStorage: (reason: string) => new AppError('insufficientStorage', reason),
  /** A write the file system or the database had no room for (ENOSPC, EDQUOT, a full database). */
  diskFull: () => new AppError('insufficientStorage', DISK_FULL_REASON),
};

/** The reason of a 507 for want of disk space; the web app matches it (api/refusal-message.ts). */
export const DISK_FULL_REASON = 'The disk is full: there is no room left for this';

/** Whether a failure was for want of disk space: the system's ENOSPC or EDQUOT, or its 507. */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof AppError) return error.reason === DISK_FULL_REASON;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * The plain-text body filebrowser writes for a status, with the reason only on 400 (and on 507,
 * Cabinet's quota refusal, whose reason names the quota and the usage).
 */
export function statusBody(status: number, reason?: string, shown = false): string {
  const text = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
  return (shown || status === 400 || status === 507) && reason
    ? `${text} (${reason})\n`
    : `${text}\n`;
}

// The protocol's schemas are zod/mini, which carries no messages of its own (the web bundle stays
// small); the server loads the English ones so that a 400 says why.
z.config(z.locales.en());

/** Summarises a zod failure as one readable sentence for a 400 body. */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}
