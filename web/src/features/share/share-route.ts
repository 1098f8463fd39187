import { encodePath } from '../../api/encode-path.ts';

/** The link and the path inside it of a `/share/{hash}/{sub}` address (the splat, decoded). */
export function parseShareSplat(splat: string): { hash: string; sub: string } {
  const trimmed = splat.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  if (slash < 0) return { hash: trimmed, sub: '/' };
  const sub = trimmed.slice(slash);
  return { hash: trimmed.slice(0, slash), sub: sub === '' ? '/' : sub };
}

/** The page address of a path inside a link (folders end in `/`). */
export function shareRoute(hash: string, path: string, isDir: boolean): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  const withSlash = isDir && !clean.endsWith('/') ? `${clean}/` : clean;
  return `/share/${hash}${clean === '/' ? '/' : encodePath(withSlash)}`;
}

/** The folder above a path inside a link, or null at the link's root. */
export function shareParent(sub: string): string | null {
  const trimmed = sub.replace(/\/+$/, '');
  if (trimmed === '') return null;
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : trimmed.slice(0, cut);
}
