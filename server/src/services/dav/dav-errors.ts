import { AppError } from '../../errors.ts';
import type { DavReply } from './dav-types.ts';

/** The Basic challenge a WebDAV client answers with its credentials. */
const CHALLENGE = { 'www-authenticate': 'Basic realm="Cabinet", charset="UTF-8"' };

/**
 * WebDAV's one mapping of the coded errors (errors.ts) to replies, as the API's error handler is
 * the JSON and plain-text one: the status, the error's own headers (a throttle's Retry-After), a
 * challenge on 401 so clients ask for credentials, and the reason only where the client should
 * read it (a quota's 507, a throttle's wait). Undefined for anything else: an unexpected failure
 * goes on to the server's error handler (a logged 500).
 */
export function davReplyOf(error: unknown): DavReply | undefined {
  if (!(error instanceof AppError)) return undefined;
  const headers = { ...error.headers, ...(error.status === 401 && CHALLENGE) };
  const reply: DavReply = { status: error.status };
  if (Object.keys(headers).length > 0) reply.headers = headers;
  // A status body ("401 Unauthorized\n") where a client shows it; the rest answer with none.
  if (error.status === 507 && error.reason) reply.reason = error.reason;
  else if (error.status === 401 || error.status === 429) reply.reason = '';
  return reply;
}
