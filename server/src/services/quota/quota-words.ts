const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** A byte count in the web app's words ("812 B", "9.8 GiB", "10 GiB"), English digits. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  // 10.0 GiB reads as 10 GiB, as people write quotas.
  const text = value.toFixed(digits).replace(/\.0$/, '');
  return `${text} ${UNITS[unit]}`;
}

/**
 * The reason of a 507: the quota and the usage in words. The web app matches this sentence to
 * show it in the reader's language (web/src/api/refusal-message.ts); keep them in step.
 */
export function quotaExceededReason(used: number, quota: number): string {
  return `This would exceed your quota: ${formatBytes(used)} of ${formatBytes(quota)} used`;
}
