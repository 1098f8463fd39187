import { encodePath } from '../../api/encode-path.ts';

/** The Sites screen: the user's sites. */
export const SITES_ROUTE = '/publishing';

/** A site's posts screen. */
export function postsRoute(site: string): string {
  return `${SITES_ROUTE}/${encodeURIComponent(site)}`;
}

/** The editor of a post; `path` is relative to the site's content/ folder (Post.path). */
export function postEditorRoute(site: string, path: string): string {
  return `${postsRoute(site)}/edit${encodePath(path.startsWith('/') ? path : `/${path}`)}`;
}
