import { formatDateTime, formatRelativeTime } from './date-time.ts';
import { formatFileSize } from './file-size.ts';

/**
 * Makes the formatters a listing's rows use, once the page is idle: the first Intl formatter of a
 * page costs tens of milliseconds (its language's data is loaded then), which the first rows of a
 * folder would otherwise pay while the page waits for nothing else.
 */
export function warmRowFormatters(locale: string): void {
  const warm = () => {
    const now = new Date();
    formatFileSize(0, locale);
    formatFileSize(1536, locale);
    formatDateTime(now, locale);
    formatRelativeTime(now, locale);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 0);
}
