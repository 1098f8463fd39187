/** Encodes a scope path for a URL: each segment percent-encoded, slashes kept. */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}
