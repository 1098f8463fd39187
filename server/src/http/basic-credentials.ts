import type { FastifyRequest } from 'fastify';

/** User name and password of an `Authorization: Basic` header, or undefined without one. */
export function basicCredentials(
  request: FastifyRequest,
): { username: string; password: string } | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The credential of a script on the API: `Authorization: Bearer <app password>`, or Basic with an
 * app password (the user name is not needed: an app password names its user).
 */
export function apiCredential(
  request: FastifyRequest,
  looksLikeAppPassword: (value: string) => boolean,
): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return looksLikeAppPassword(bearer[1]!) ? bearer[1] : undefined;
  const basic = basicCredentials(request);
  return basic && looksLikeAppPassword(basic.password) ? basic.password : undefined;
}
