import { encodePath } from '../api/encode-path.ts';

const FILES_PREFIX = '/files';

/**
 * The scope path a /files route shows: "/files/a%20b/c/" → "/a b/c/". The trailing slash of a
 * folder URL is kept; segments that are not valid percent-encoding are taken literally.
 */
export function scopePathFromRoute(pathname: string): string {
  const rest = pathname.startsWith(FILES_PREFIX) ? pathname.slice(FILES_PREFIX.length) : pathname;
  const path = rest
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  return path.startsWith('/') ? path : `/${path}`;
}

/** The route of a scope path: names are URL-encoded and folder URLs end with a slash. */
export function routeFromScopePath(path: string, isDir: boolean): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  const withSlash = isDir && !clean.endsWith('/') ? `${clean}/` : clean;
  return FILES_PREFIX + encodePath(withSlash);
}

/** Whether two scope paths name the same entry, ignoring a trailing slash. */
export function isSamePath(a: string, b: string): boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p) || '/';
  return trim(a) === trim(b);
}

/** The folder a scope path lives in ("/a/b.txt" → "/a/", "/a/b/" → "/a/"). */
export function parentFolder(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : `${trimmed.slice(0, cut)}/`;
}

/** The path segments of a scope path, for breadcrumbs: "/a/b/" → ["a", "b"]. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** The folder in which "New file" and "New folder" create: the folder on screen, else the root. */
export function currentFolderOf(pathname: string): string {
  if (!pathname.startsWith(`${FILES_PREFIX}/`)) return '/';
  const path = scopePathFromRoute(pathname);
  return path.endsWith('/') ? path : parentFolder(path);
}
