import type { ArchiveFormat } from '@cabinet/protocol';
import { Resource } from '@cabinet/protocol';
import { baseURL } from '../../config/page-config.ts';
import { apiJson, apiUrl } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** The address of a share page, as people receive it: `{origin}{base}/share/{hash}`. */
export function shareUrl(hash: string): string {
  return `${window.location.origin}${baseURL}/share/${hash}`;
}

/**
 * GET /api/public/share/{hash}{sub}: what a link shows, without a session. The password goes in
 * X-SHARE-PASSWORD, URL-encoded as the reference client sends it.
 */
export function fetchPublicShare(
  hash: string,
  sub: string,
  password: string,
  signal?: AbortSignal,
  visit?: string,
): Promise<Resource> {
  const headers: Record<string, string> = password
    ? { 'X-SHARE-PASSWORD': encodeURIComponent(password) }
    : {};
  // The visit's ticket (docs/sharing.md): a visit walking a folder link keeps one ticket.
  const query = visit ? `?visit=${encodeURIComponent(visit)}` : '';
  return apiJson(`/public/share/${hash}${encodePath(sub)}${query}`, Resource, {
    signal,
    headers,
    withToken: false,
  });
}

/**
 * GET /api/public/dl/{hash}{sub}: a file (inline to view it) or a folder as an archive. The
 * token of a password link is a download token bound to the link, never a session; `visit` is the
 * page visit's ticket.
 */
export function publicDownloadUrl(
  hash: string,
  sub: string,
  options: { token?: string; visit?: string; inline?: boolean; format?: ArchiveFormat } = {},
): string {
  const query = new URLSearchParams();
  if (options.format) query.set('algo', options.format);
  if (options.inline) query.set('inline', 'true');
  if (options.token) query.set('token', options.token);
  // Everything one page visit fetches of the file counts one download (docs/sharing.md).
  if (options.visit) query.set('visit', options.visit);
  const search = query.toString();
  const path = sub === '/' ? '' : encodePath(sub);
  return apiUrl(`/public/dl/${hash}${path}${search ? `?${search}` : ''}`);
}
