import path from 'node:path';
import { SITE_NAME_PATTERN } from '@cabinet/protocol';
import { errors } from '../../errors.ts';

/** A site name is its URL segment: lower-case letters, digits and inner dashes. */
export function checkSiteName(name: string): string {
  if (!SITE_NAME_PATTERN.test(name)) throw errors.badRequest('invalid site name');
  return name;
}

/**
 * A relative path that cannot climb: no absolute path, no backslash (a separator on other systems,
 * so never accepted as a name byte here), no `.`/`..`/empty segment, no NUL. `what` names it in
 * the 400.
 */
export function safeRelative(raw: string, what: string): string {
  if (
    raw === '' ||
    raw.startsWith('/') ||
    raw.includes('\\') ||
    raw.includes('\0') ||
    raw.split('/').some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw errors.badRequest(`invalid ${what}`);
  }
  return raw;
}

/** The site folder, root-relative: `/users/alice/blog` (never the root itself). */
export function siteFolder(raw: string): string {
  const trimmed = raw.replace(/\/+$/, '').replace(/^\/+/, '');
  safeRelative(trimmed, 'folder');
  return `/${trimmed}`;
}

/** The output folder inside the site: a plain relative folder that is none of the site's own. */
export function outputFolder(raw: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  safeRelative(trimmed, 'output');
  const first = trimmed.split('/')[0]!;
  if (first.startsWith('.') || ['content', 'layouts', 'archetypes', 'static'].includes(first)) {
    throw errors.badRequest('invalid output');
  }
  return trimmed;
}

/** A post path relative to content/: a `.md` file that stays inside content/. */
export function postPath(raw: string): string {
  safeRelative(raw, 'path');
  if (!raw.endsWith('.md')) throw errors.badRequest('invalid path');
  return raw;
}

/** One name (a section, a slug, an archetype): letters, digits, `.`, `_`, `-`; not a dot file. */
export function nameSegment(raw: string, what: string): string {
  if (!/^[\p{L}\p{N}_-][\p{L}\p{N}._-]*$/u.test(raw) || raw.length > 200) {
    throw errors.badRequest(`invalid ${what}`);
  }
  return raw;
}

/** A slug from a title: lower-case words joined by dashes (letters of any script kept). */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'post';
}

/** `posts/hello.md` → section `posts`, slug `hello`. */
export function splitPostPath(rel: string): { section: string; slug: string } {
  const dir = path.posix.dirname(rel);
  return {
    section: dir === '.' ? '' : dir.split('/')[0]!,
    slug: path.posix.basename(rel, '.md'),
  };
}
