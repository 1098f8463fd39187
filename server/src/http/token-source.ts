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

/**
 * Finds the token of a request: the X-Auth header always; for GET (and HEAD) also the `auth`
 * cookie and the `auth` query parameter. Mutations never accept the cookie, which stops CSRF
 * (GHSA-72wf-hwcq-65h9).
 */
export function tokenFromRequest(request: FastifyRequest): string | undefined {
  const header = request.headers['x-auth'];
  if (typeof header === 'string' && header) return header;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const query = (request.query as Record<string, unknown> | undefined)?.auth;
  if (typeof query === 'string' && query) return query;
  return readCookie(request, 'auth');
}
