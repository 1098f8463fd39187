/** Numbers both sides rely on. SPEC.md section 9 and API.md are the sources. */
export const LIMITS = {
  /** Login and signup bodies are capped to stop memory exhaustion (GHSA-w5fm-68j4-fpc4). */
  authBodyBytes: 1024 * 1024,
  /** Largest text file whose content is returned and edited in the browser. */
  textContentBytes: 10 * 1024 * 1024,
  /** Default minimum password length. */
  minimumPasswordLength: 12,
  /** Upload concurrency in the web client. */
  concurrentUploads: 5,
  uploadProgressThrottleMs: 100,
  notificationMs: 1000,
  listingPageSize: 50,
  searchPageSize: 50,
  sharePageItems: 500,
  mobileBreakpointPx: 736,
  doubleTapMs: 300,
  mosaicColumnPx: 300,
  chunkLoadTimeoutMs: 120000,
  shareDurationMax: 2147483647,
} as const;

/** Default resumable-upload settings (API.md section 10.1). */
export const DEFAULT_TUS = { chunkSize: 10485760, retryCount: 5 } as const;
