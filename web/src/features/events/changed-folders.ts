/** A scope path without its trailing slash (the root stays `/`). */
export function trimPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The folder holding a scope path (`/` for a top-level name). */
export function parentOf(path: string): string {
  const trimmed = trimPath(path);
  const slash = trimmed.lastIndexOf('/');
  return slash <= 0 ? '/' : trimmed.slice(0, slash);
}

/**
 * Whether a listing or file shown at `shown` must be re-read after `changed` changed on disk: the
 * item itself, an entry of the folder shown, or a folder above it (renamed or removed).
 */
export function isAffected(shown: string, changed: string): boolean {
  const view = trimPath(shown);
  const path = trimPath(changed);
  if (view === path || parentOf(path) === view) return true;
  return path === '/' || view.startsWith(`${path}/`);
}
