/** Numbers of the web app's screens alone; the server knows none of them. */
export const UI_LIMITS = {
  /** Uploads sent at the same time. */
  concurrentUploads: 5,
  /** Upload progress reaches the screen at most this often. */
  uploadProgressThrottleMs: 100,
  /** How long a success or info notification stays (errors stay until dismissed). */
  notificationMs: 1000,
  /** Entries a listing shows before "show more". */
  listingPageSize: 50,
  /** Search hits shown before "show more". */
  searchPageSize: 50,
  /** Entries a shared folder's page shows. */
  sharePageItems: 500,
  /** Widths up to this are phones: the phone layout (matches the CSS media queries). */
  mobileBreakpointPx: 736,
  /** Two taps within this time are a double tap (open). */
  doubleTapMs: 300,
  /** Width of one mosaic column; the listing fits as many as the width allows. */
  mosaicColumnPx: 300,
  /** A chunk loaded on demand that has not arrived by then counts as failed. */
  chunkLoadTimeoutMs: 120000,
  /** The sites editor renders its live preview once typing has paused this long. */
  sitePreviewDebounceMs: 600,
} as const;
