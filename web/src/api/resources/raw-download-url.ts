import type { ArchiveFormat } from '@cabinet/protocol';
import { apiUrl } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/**
 * The GET /api/raw URL that downloads entries. One file comes as itself; a
 * folder, or several entries, as an archive in `format`. Several entries are named with `files=`,
 * whose items the server decodes once more after the query: each path is encoded, then the list.
 * No token goes into the URL: the auth cookie authorises the download.
 */
export function rawDownloadUrl(
  entries: readonly { path: string; isDir: boolean }[],
  format: ArchiveFormat,
): string {
  if (entries.length === 1) {
    const [entry] = entries;
    return entry!.isDir
      ? apiUrl(`/raw${encodePath(entry!.path)}?algo=${format}`)
      : apiUrl(`/raw${encodePath(entry!.path)}`);
  }
  const files = entries.map((entry) => encodePath(entry.path.replace(/\/+$/, ''))).join(',');
  return apiUrl(`/raw/?files=${encodeURIComponent(files)}&algo=${format}`);
}
