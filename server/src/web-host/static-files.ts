import { stat } from 'node:fs/promises';
import path from 'node:path';

/** Where a /static/ request is served from, and how long browsers may keep it. */
export interface StaticTarget {
  root: string;
  file: string;
  cacheControl: string;
}

/** Vite's content-hashed output: safe to cache for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unhashed files of the build (favicon, manifest): a day, as filebrowser does. */
const DAILY = 'public, max-age=86400';
/** Branding overrides change whenever the operator edits them: always revalidate. */
const REVALIDATE = 'no-cache';

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Maps `/static/<rel>` to a file: `custom.css` and `img/…` come from the branding folder when it
 * holds them, everything else from the web build. Names with `..`, backslashes, NUL or a trailing
 * slash are refused (undefined → 404); @fastify/static confines the final read to the root too.
 */
export async function resolveStatic(
  rel: string,
  webDist: string,
  brandingDir: string,
): Promise<StaticTarget | undefined> {
  if (!rel || rel.endsWith('/') || /(^|\/)\.\.(\/|$)|\\|\0/.test(rel)) return undefined;
  const file = path.posix.normalize(rel).replace(/^\/+/, '');
  if (brandingDir && (file === 'custom.css' || file.startsWith('img/'))) {
    if (await isFile(path.join(brandingDir, file))) {
      return { root: path.resolve(brandingDir), file, cacheControl: REVALIDATE };
    }
  }
  return {
    root: webDist,
    file,
    cacheControl: file.startsWith('assets/') ? IMMUTABLE : DAILY,
  };
}
