import type { FastifyRequest } from 'fastify';

const SITE_SANDBOX = 'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox';

/** Whether a reply's policy is a served site's (which no second policy may narrow). */
export function isServedSiteCsp(csp: unknown): boolean {
  return typeof csp === 'string' && csp.startsWith(`${SITE_SANDBOX};`);
}

/**
 * The policy of a served site's pages and files (`/sites/<name>/…`, docs/security.md "Served
 * sites"). `sandbox` without `allow-same-origin` gives the page an opaque origin: its scripts run
 * but cannot read Cabinet's cookies or storage (the token), and its requests are cross-site, so
 * they carry no session. Its own files load from the site's URL prefix, named explicitly: under a
 * sandbox `'self'` is the opaque origin by the letter of CSP 3 (browsers take the URL's origin:
 * w3c/webappsec-csp#260), and a path keeps the site from loading the app's own URLs (`/api/…`)
 * as scripts or styles. Inline scripts and styles run: in the opaque origin they can do no more
 * than the site's own files. Popups may leave the sandbox so a link opened in a new tab works.
 */
export function servedSiteCsp(own: string): string {
  return [
    SITE_SANDBOX,
    "default-src 'none'",
    `script-src ${own} 'unsafe-inline'`,
    `style-src ${own} 'unsafe-inline'`,
    `img-src ${own} data:`,
    `font-src ${own} data:`,
    `media-src ${own}`,
    `connect-src ${own}`,
    `manifest-src ${own}`,
    `base-uri ${own}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * The absolute URL a served site answers under, as the browser asked for it. A Host header that is
 * no host name could break the policy's syntax: the site's files then fall back to `'self'`.
 */
export function servedSitePrefix(request: FastifyRequest, basePath: string): string {
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(request.host)) return "'self'";
  return `${request.protocol}://${request.host}${basePath}`;
}
