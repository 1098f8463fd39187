/** What went wrong with a call, as the interface needs to tell it apart (SPEC.md section 8). */
export type ApiErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'internal'
  | 'network'
  | 'bad-reply';

/** A failed API call: the status (0 without a reply) and the server's text, shown to users verbatim. */
export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;

  constructor(status: number, message: string, kind: ApiErrorKind = kindOfStatus(status)) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.kind = kind;
  }
}

/** Maps an HTTP status to the kind of failure. */
export function kindOfStatus(status: number): ApiErrorKind {
  switch (status) {
    case 400:
      return 'bad-request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate-limited';
    default:
      return 'internal';
  }
}

/** The error page that stands in for a page whose data failed to load: 404, 403, or 500 for the rest. */
export function errorPageCode(error: unknown): 403 | 404 | 500 {
  if (error instanceof ApiError) {
    if (error.kind === 'not-found') return 404;
    if (error.kind === 'forbidden') return 403;
  }
  return 500;
}
