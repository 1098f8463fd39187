import { errors } from '../../errors.ts';

/** Bot-check settings from the configuration; on when both key and secret are set. */
export interface RecaptchaConfig {
  recaptchaHost: string;
  recaptchaKey: string;
  recaptchaSecret: string;
}

/** True when the login form must carry a bot-check response. */
export function isRecaptchaEnabled(config: RecaptchaConfig): boolean {
  return Boolean(config.recaptchaKey && config.recaptchaSecret);
}

const VERIFY_TIMEOUT_MS = 10_000;

/**
 * Verifies a bot-check response with a reCAPTCHA-compatible service: POSTs the form
 * `secret&response` to `<host>/recaptcha/api/siteverify`. An empty response, a non-200 answer or
 * `success: false` is a 403; a verifier that cannot be reached is a 500 (logged with its cause).
 */
export async function verifyRecaptcha(config: RecaptchaConfig, response: string): Promise<void> {
  if (!response) throw errors.forbidden('bot-check response missing');
  const url = `${config.recaptchaHost.replace(/\/+$/, '')}/recaptcha/api/siteverify`;
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: config.recaptchaSecret, response }).toString(),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch (error) {
    throw errors.internal('bot-check verifier unreachable', error);
  }
  if (answer.status !== 200) {
    await answer.body?.cancel();
    throw errors.forbidden('bot-check verifier refused');
  }
  let body: unknown;
  try {
    body = await answer.json();
  } catch (error) {
    throw errors.internal('bot-check verifier sent invalid JSON', error);
  }
  if ((body as { success?: unknown } | null)?.success !== true) {
    throw errors.forbidden('bot-check failed');
  }
}
