import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageConfig } from '@cabinet/protocol';

/** Where the built index.html asks for the page configuration. */
export const CONFIG_MARKER = '<!--cabinet-config-->';
/** The placeholder base URL the web build puts in front of every /static/ URL in index.html. */
export const BASE_PLACEHOLDER = '/__CABINET_BASE__';

/**
 * JSON safe inside a <script> element: `<`, `>` and `&` cannot close the element or open a
 * comment, and U+2028/U+2029 cannot break older JavaScript parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text safe inside an HTML element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Renders the built index.html for one request: the page configuration replaces the marker,
 * the base-URL placeholder becomes the configured base URL, the title becomes the instance name,
 * and the dark theme is set on <html> so the first paint already has the right colours. The
 * configuration script carries `nonce`, the one inline script the page's CSP lets run.
 */
export function renderIndex(template: string, page: PageConfig, nonce: string): string {
  const script =
    `<script nonce="${escapeHtml(nonce)}">window.FileBrowser = ${scriptSafeJson(page)}; ` +
    `window.__prependStaticUrl = (u) => window.FileBrowser.StaticURL + "/" + String(u).replace(/^\\/+/, "");</script>` +
    (page.CSS ? `<link rel="stylesheet" href="${escapeHtml(page.StaticURL)}/custom.css" />` : '');
  let html = template.split(BASE_PLACEHOLDER).join(page.BaseURL);
  html = html.includes(CONFIG_MARKER)
    ? html.split(CONFIG_MARKER).join(script)
    : html.replace(/<\/head>/i, `${script}</head>`);
  html = html.replace(/<title>[^<]*<\/title>/i, `<title>${escapeHtml(page.Name)}</title>`);
  html = html.replace(/<html\b([^>]*)>/i, (_tag, attrs: string) => {
    const rest = attrs.replace(/\sdata-theme\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi, '');
    return page.Theme === 'dark' ? `<html${rest} data-theme="dark">` : `<html${rest}>`;
  });
  return html;
}

/** Reads the built index.html from the web app's dist folder; undefined when not built. */
export async function readIndexTemplate(webDist: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(webDist, 'index.html'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
