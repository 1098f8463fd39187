import type { FastifyRequest } from 'fastify';

/** Reads one cookie from the Cookie header without a cookie library. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Where a route accepts its token from, beyond the X-Auth header. */
export interface TokenSources {
  /**
   * Whether a GET may carry the token in the `auth` query parameter. Only downloads, previews,
   * subtitles and the command socket allow it (links the browser opens without headers); anywhere
   * else a leaked download link would unlock every read-only route of its user.
   */
  queryToken?: boolean;
}

/**
 * Finds the token of a request: the X-Auth header always; for GET (and HEAD) also the `auth`
 * cookie, and the `auth` query parameter where the route allows it. Mutations never accept the
 * cookie or the query, which stops CSRF (GHSA-72wf-hwcq-65h9).
 */
export function tokenFromRequest(
  request: FastifyRequest,
  sources: TokenSources = {},
): string | undefined {
  const header = request.headers['x-auth'];
  if (typeof header === 'string' && header) return header;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (sources.queryToken) {
    const { query } = request;
    const auth = typeof query === 'object' && query !== null && 'auth' in query ? query.auth : '';
    if (typeof auth === 'string' && auth) return auth;
  }
  return readCookie(request, 'auth');
}
