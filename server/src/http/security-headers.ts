import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** One year: browsers then use HTTPS for the host without asking first. */
const HSTS = 'max-age=31536000';

/**
 * Browser features the app never uses, switched off for its pages so an injected script could not
 * use them either. Clipboard and fullscreen stay (copy a link, view a video).
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), ' +
  'midi=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), display-capture=()';

/** A fresh nonce for the one inline script of a page (its configuration). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The web app's policy: scripts only from this origin plus the page's configuration script by its
 * nonce (never 'unsafe-inline' for scripts); inline styles stay allowed because React and the
 * editor set style attributes. Frames, objects (the PDF viewer) and connections stay on this
 * origin; `frameAncestors` lists who may embed the pages (none by default).
 */
export function pageCsp(
  nonce: string,
  frameAncestors: readonly string[],
  /** Origins of the bot check (reCAPTCHA), when the login page shows it: its script and frame. */
  botCheck: readonly string[] = [],
): string {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  const extra = botCheck.map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${extra}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${extra}`,
    `frame-src 'self'${extra}`,
    "object-src 'self'",
    "worker-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/**
 * Headers every answer carries unless its route chose otherwise: no referrer leaves a page (share
 * links and paths stay private), nosniff, and HSTS whenever the request came over HTTPS — served
 * by Cabinet itself, or by a trusted reverse proxy that says so (X-Forwarded-Proto).
 */
export function useSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('x-content-type-options'))
      reply.header('x-content-type-options', 'nosniff');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
}

/**
 * Where reCAPTCHA's widget comes from: the configured host (google.com or recaptcha.net) serves
 * api.js and the challenge frame, and loads the rest from gstatic.com.
 */
export function botCheckOrigins(recaptchaHost: string): string[] {
  let origin: string;
  try {
    origin = new URL(recaptchaHost).origin;
  } catch {
    return [];
  }
  return [origin, 'https://www.gstatic.com'];
}
