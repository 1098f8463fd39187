import type { FastifyReply } from 'fastify';
import { isServedSiteCsp } from './site-csp.ts';

const API_CSP = "default-src 'self'; style-src 'unsafe-inline';";

/**
 * The headers every /api/ answer carries: the API's content security policy (a route's stricter
 * one, e.g. the sandbox of downloads, is kept as a second header), no caching unless the route
 * chose, and nosniff. Applied in onSend, and by routes that write the response themselves.
 */
export function applyApiHeaders(reply: FastifyReply): void {
  const csp = reply.getHeader('content-security-policy');
  if (csp === undefined) reply.header('content-security-policy', API_CSP);
  else if (isServedSiteCsp(csp)) {
    // A served site's or site preview's policy stands alone: the API's would forbid its own
    // stylesheets and scripts (http/site-csp.ts).
  } else if (!String(csp).includes(API_CSP)) {
    reply.header('content-security-policy', [API_CSP, ...[csp].flat().map(String)]);
  }
  if (!reply.hasHeader('cache-control')) {
    reply.header('cache-control', 'no-cache, no-store, must-revalidate');
  }
  if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
}
