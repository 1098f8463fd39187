import { sendEarlyListing } from '../api/resources/early-listing.ts';
import { resourceUrl } from '../api/resources/resource-url.ts';
import { isWellFormedToken } from '../auth/token-claims.ts';
import { loadStoredToken } from '../auth/token-storage.ts';
import { baseURL } from '../config/page-config.ts';
import { scopePathFromRoute } from '../paths/file-paths.ts';

/**
 * At start-up, on a files route with a stored session: asks for that folder at once, beside the
 * session's renewal (api/resources/early-listing.ts). Called as this module is evaluated, before
 * the rest of the app's code (main.tsx imports it first), so the request leaves that much sooner.
 */
function askForOpenedFolder(pathname: string): void {
  const token = loadStoredToken();
  if (!token || !isWellFormedToken(token) || !pathname.startsWith(baseURL)) return;
  const route = pathname.slice(baseURL.length);
  if (route !== '/files' && !route.startsWith('/files/')) return;
  const path = scopePathFromRoute(route);
  sendEarlyListing(path, token, resourceUrl(path));
}

askForOpenedFolder(window.location.pathname);
