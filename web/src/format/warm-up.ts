import { formatDateTime, formatRelativeTime } from './date-time.ts';
import { formatFileSize } from './file-size.ts';

/**
 * Makes the formatters a listing's rows use, at the page's first free moment (while the app's
 * language loads and its folder is on its way): the first Intl formatters of a page cost 50 to
 * 150 ms on a small machine (the browser loads its locale data then), which the first rows of a
 * folder would otherwise pay. A wrong guess of the language still loads most of that data.
 */
export function warmRowFormatters(locale: string): void {
  const warm = () => {
    const now = new Date();
    formatFileSize(0, locale);
    formatFileSize(1536, locale);
    formatDateTime(now, locale);
    formatRelativeTime(now, locale);
  };
  setTimeout(warm, 0);
}
