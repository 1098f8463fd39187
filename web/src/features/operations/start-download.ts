import type { ArchiveFormat, ResourceItem } from '@cabinet/protocol';
import { rawDownloadUrl } from '../../api/resources/raw-download-url.ts';

/**
 * Starts a browser download of entries through a hidden <a download>: the page stays where it
 * is, the server's file name is kept, and the auth cookie authorises the request.
 */
export function startDownload(
  entries: readonly ResourceItem[],
  format: ArchiveFormat = 'zip',
): void {
  const link = document.createElement('a');
  link.href = rawDownloadUrl(entries, format);
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Whether entries download as they are (one file) rather than as an archive. */
export function isSingleFile(entries: readonly ResourceItem[]): boolean {
  return entries.length === 1 && !entries[0]!.isDir;
}
