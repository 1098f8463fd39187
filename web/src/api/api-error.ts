import { reasonOf, refusalMessage } from './refusal-message.ts';

/** What went wrong with a call, as the interface needs to tell it apart. */
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

/**
 * A failed API call. `message` is the sentence for people (refusal-message.ts); `detail` keeps the
 * server's own text (or the network error) for logs, and `reason` the part of a 400 reply in
 * brackets, for the few places that match on it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly detail: string;
  readonly reason: string | undefined;

  constructor(status: number, detail: string, kind: ApiErrorKind = kindOfStatus(status)) {
    const reason = reasonOf(detail);
    super(kind === 'network' ? refusalMessage(0, undefined) : refusalMessage(status, reason));
    this.name = 'ApiError';
    this.status = status;
    this.kind = kind;
    this.detail = detail;
    this.reason = reason;
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

/**
 * Whether a failure is the product's fault rather than the user's input: a server failure, no
 * reply, or a reply we cannot read (not a 507). Only these offer "Report issue".
 */
export function isUnexpected(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  // 507 is a refusal (over the quota, or the disk is full): the user's to act on, not a bug.
  if (error.status === 507) return false;
  return error.kind === 'network' || error.kind === 'bad-reply' || error.status >= 500;
}

/** Whether a call got no reply at all (the server is away or the network is down). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'network';
}

/** The error page that stands in for a page whose data failed to load: 404, 403, or 500 for the rest. */
export function errorPageCode(error: unknown): 403 | 404 | 500 {
  if (error instanceof ApiError) {
    if (error.kind === 'not-found') return 404;
    if (error.kind === 'forbidden') return 403;
  }
  return 500;
}
