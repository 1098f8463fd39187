import { startEarlyListing } from '../api/resources/early-listing.ts';
import { readResource, resourceUrl, showFirstRows } from '../api/resources/resource-query.ts';
import { isWellFormedToken } from '../auth/token-claims.ts';
import { loadStoredToken } from '../auth/token-storage.ts';
import { baseURL } from '../config/page-config.ts';
import { scopePathFromRoute } from '../paths/file-paths.ts';
import { queryClient } from './query-client.ts';

/**
 * At start-up, on a files route with a stored session: asks for that folder at once, beside the
 * session's renewal, and shows its first rows as soon as they arrive (api/resources/early-listing.ts).
 */
export function askForOpenedFolder(pathname: string): void {
  const token = loadStoredToken();
  if (!token || !isWellFormedToken(token) || !pathname.startsWith(baseURL)) return;
  const route = pathname.slice(baseURL.length);
  if (route !== '/files' && !route.startsWith('/files/')) return;
  const path = scopePathFromRoute(route);
  const url = resourceUrl(path);
  startEarlyListing(path, token, url, (response) =>
    readResource(url, response, showFirstRows(queryClient, path)),
  );
}
