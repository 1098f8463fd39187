import type * as z from 'zod/mini';
import { baseURL } from '../config/page-config.ts';
import { ApiError } from './api-error.ts';
import { markReachable, markUnreachable } from './connection-monitor.ts';
import { session } from './session-link.ts';

/** Options of one API call. */
export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A value sent as a JSON body. */
  json?: unknown;
  /** A raw body (text or bytes). */
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sends the session token (default true). Login and signup do not. */
  withToken?: boolean;
  /** A token to send instead of the session's: logout's, once the page has let go of it. */
  token?: string;
}

/** `/api` under the base URL, so the app works wherever the server is mounted. */
export function apiUrl(path: string): string {
  return `${baseURL}/api${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * The calls in flight with the session's token: logging out cancels them before the server ends
 * the session, so none comes back refused (401) after the user chose to leave.
 */
const sessionCalls = new Set<AbortController>();

/** Cancels every call made with the session's token that has not answered yet (logout). */
export function cancelSessionCalls(): void {
  for (const call of sessionCalls) call.abort();
  sessionCalls.clear();
}

/**
 * The one place that talks HTTP to the server: adds X-Auth, renews the token when the server asks
 * for it (X-Renew-Token), ends the session on 401, turns every non-2xx reply or network failure
 * into an ApiError (in words for people, with the server's text kept for logs), and tells the
 * connection monitor whether the server answered.
 */
export async function apiRequest(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = 'GET', json, body, signal, withToken = true } = options;
  const headers = new Headers(options.headers);
  const token = options.token ?? (withToken ? session().token() : null);
  if (token) headers.set('X-Auth', token);
  let payload = body;
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(json);
  }

  // A call with the token can be cancelled by logout as well as by its caller.
  const call = token && !options.token ? new AbortController() : null;
  const onCallerAbort = () => call?.abort(signal?.reason);
  if (call) {
    if (signal?.aborted) call.abort(signal.reason);
    else signal?.addEventListener('abort', onCallerAbort, { once: true });
    sessionCalls.add(call);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: payload,
      signal: call?.signal ?? signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    markUnreachable();
    throw new ApiError(0, error instanceof Error ? error.message : String(error), 'network');
  } finally {
    if (call) {
      sessionCalls.delete(call);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }
  markReachable();

  if (token && response.headers.get('X-Renew-Token') === 'true') void renewSession();
  if (response.ok) return response;

  const text = (await response.text().catch(() => '')).trim();
  // A token the server no longer honours (expired, revoked, user deleted) ends the session here;
  // the route guard then sends the user to the login page.
  if (response.status === 401 && token && session().token() === token) {
    console.warn('Cabinet: the session is no longer valid; logging out');
    session().end();
  }
  throw new ApiError(response.status, text || `${response.status} ${response.statusText}`);
}

/** A call whose reply is JSON, checked against the protocol schema (never trusted blindly). */
export async function apiJson<Schema extends z.ZodMiniType>(
  path: string,
  schema: Schema,
  options?: ApiRequestOptions,
): Promise<z.infer<Schema>> {
  const response = await apiRequest(path, options);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    console.warn(`Cabinet: unexpected reply from ${path}`, parsed.error.issues);
    throw new ApiError(response.status, 'The server sent an unexpected reply', 'bad-reply');
  }
  return parsed.data;
}

/** A call whose reply is plain text (tokens, status lines). */
export async function apiText(path: string, options?: ApiRequestOptions): Promise<string> {
  const response = await apiRequest(path, options);
  return response.text();
}

let renewal: Promise<boolean> | null = null;

/**
 * Exchanges the current token for a fresh one (POST /api/renew). Concurrent requests share one
 * call. A refused renewal means the session is over: the user is logged out (a warning only).
 * Resolves to whether the session is still alive.
 */
export function renewSession(): Promise<boolean> {
  if (!renewal) {
    renewal = renewOnce().finally(() => {
      renewal = null;
    });
  }
  return renewal;
}

async function renewOnce(): Promise<boolean> {
  const token = session().token();
  if (!token) return false;
  let response: Response;
  try {
    response = await fetch(apiUrl('/renew'), {
      method: 'POST',
      headers: { 'X-Auth': token },
      credentials: 'same-origin',
    });
  } catch (error) {
    // Without a reply the session may well be fine; keep it and let the next call decide.
    console.warn('Cabinet: token renewal failed', error);
    return true;
  }
  const fresh = response.ok ? (await response.text()).trim() : '';
  const current = session().token();
  // A login or logout happened meanwhile: that one wins.
  if (current !== token) return current !== null;
  if (response.ok && session().adopt(fresh)) return true;
  if (response.status >= 500) return true;
  console.warn(`Cabinet: the session could not be renewed (${response.status}); logging out`);
  session().end();
  return false;
}
