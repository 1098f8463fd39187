import { PostPreview } from '@cabinet/protocol';
import { baseURL } from '../../config/page-config.ts';
import { apiJson } from '../client.ts';
import { session } from '../session-link.ts';
import { siteApiPath } from './site-keys.ts';

/**
 * POST /api/sites/{name}/preview: renders the post (with `content`, the editor's unsaved text)
 * into a scratch build and answers the URL of its page.
 */
export function requestPostPreview(
  site: string,
  path: string,
  content: string | undefined,
  signal?: AbortSignal,
) {
  return apiJson(siteApiPath(site, '/preview'), PostPreview, {
    method: 'POST',
    json: content === undefined ? { path } : { path, content },
    signal,
  });
}

/**
 * The preview's address for a frame. The frame is sandboxed without allow-same-origin, so its
 * document has an opaque origin and the SameSite auth cookie may not go with its requests: the
 * token rides along as `auth`, which the server accepts on GETs.
 */
export function previewFrameUrl(url: string): string {
  const token = session().token();
  const address = `${baseURL}${url.startsWith('/') ? url : `/${url}`}`;
  if (!token) return address;
  return `${address}${address.includes('?') ? '&' : '?'}auth=${encodeURIComponent(token)}`;
}

/** The served output of a site (`/sites/<name>/`), under the base URL. */
export function servedSiteUrl(url: string): string {
  return url.startsWith(baseURL) ? url : `${baseURL}${url.startsWith('/') ? url : `/${url}`}`;
}
