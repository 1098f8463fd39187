import path from 'node:path';
import mime from 'mime-types';
import { openPreviewFile, type PreviewFile } from '../../cache/site-previews.ts';
import type { SitesContext } from './sites-context.ts';
import { errors } from '../../errors.ts';
import { contentDisposition, type FileToSend } from '../file-to-send.ts';
import type { SiteAccessor } from './site-access.ts';

export function typeOf(name: string): string {
  const type = mime.lookup(name) || 'application/octet-stream';
  return /^text\/|xml|javascript|json/.test(type) ? `${type}; charset=utf-8` : type;
}

/** A preview's file, found by SitePreviews, for sending. */
export function previewToSend(found: PreviewFile): FileToSend {
  return {
    size: found.size,
    mtime: found.mtime,
    contentType: typeOf(found.real),
    disposition: contentDisposition('inline', path.basename(found.real)),
    open: () => openPreviewFile(found.real),
  };
}

/** A file of a served site's output; 404 when the site is not served or the file is missing. */
export async function publicFile(
  ctx: SitesContext,
  sites: SiteAccessor,
  name: string,
  rel: string,
): Promise<FileToSend> {
  const site = await ctx.store.sites.get(name);
  if (!site || !site.serve) throw errors.notFound();
  const fs = await sites.siteFs(site).catch(() => {
    throw errors.notFound();
  });
  const segments = rel.split('/').filter(Boolean);
  if (segments.some((s) => s === '..' || s === '.' || s.includes('\\'))) throw errors.notFound();
  let target = `/${[site.output, ...segments].join('/')}`;
  let found = await fs.stat(target).catch(() => undefined);
  if (found?.stat.isDirectory()) {
    target = `${target}/index.html`;
    found = await fs.stat(target).catch(() => undefined);
  }
  if (!found || !found.stat.isFile()) throw errors.notFound();
  const file = found;
  return {
    size: file.stat.size,
    mtime: file.stat.mtime,
    contentType: typeOf(file.name),
    disposition: contentDisposition('inline', file.name),
    open: () => fs.openFile(file),
  };
}

/**
 * A served site that has no output yet (never built, or its output folder removed): "View the
 * site" then shows a page saying so instead of a bare 404. The site's title, or undefined when
 * it has output or is not served.
 */
export async function unbuiltTitle(
  ctx: SitesContext,
  sites: SiteAccessor,
  name: string,
): Promise<string | undefined> {
  const site = await ctx.store.sites.get(name);
  if (!site || !site.serve) return undefined;
  const fs = await sites.siteFs(site).catch(() => undefined);
  const output = await fs?.stat(`/${site.output}`).catch(() => undefined);
  return output ? undefined : site.title;
}
