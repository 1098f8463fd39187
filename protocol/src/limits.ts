/** Numbers both sides rely on (the web app's own are in web/src/config/ui-limits.ts). */
export const LIMITS = {
  /** Login and signup bodies are capped to stop memory exhaustion (GHSA-w5fm-68j4-fpc4). */
  authBodyBytes: 1024 * 1024,
  /** Largest text file whose content is returned and edited in the browser. */
  textContentBytes: 10 * 1024 * 1024,
  /** Default minimum password length. */
  minimumPasswordLength: 12,
  shareDurationMax: 2147483647,
} as const;

/** Default resumable-upload settings. */
export const DEFAULT_TUS = { chunkSize: 10485760, retryCount: 5 } as const;
