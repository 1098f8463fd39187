import { ApiError } from '../api-error.ts';

/**
 * The `code` of a refusal whose body is JSON (`{"code":"slug_taken"}`, `{"code":"site_exists"}`),
 * or undefined for any other failure.
 */
export function siteErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const body = JSON.parse(error.detail) as unknown;
    if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') {
      return body.code;
    }
  } catch {
    // Not JSON: a plain refusal.
  }
  return undefined;
}
