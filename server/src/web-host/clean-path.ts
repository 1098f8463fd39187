import path from 'node:path';

/**
 * The redirect target for a request path that is not clean: one holding `//`, `/./` or `/../`
 * (after percent-decoding) gets a 301 to its cleaned form, trailing slash and query kept, so
 * rules and routes only ever see canonical paths (GHSA-4mh3-h929-w968). Undefined when clean or
 * undecodable (the route answers those).
 */
export function uncleanPathRedirect(url: string): string | undefined {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (!/\/\/|\/\.\.?(\/|$)/.test(decoded)) return undefined;
  let cleaned = path.posix.normalize(decoded);
  if (cleaned.length > 1) cleaned = cleaned.replace(/\/+$/, '');
  if (decoded.endsWith('/') && cleaned !== '/') cleaned += '/';
  if (!cleaned.startsWith('/')) cleaned = `/${cleaned}`;
  const encoded = cleaned
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return encoded + query;
}
