import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { isAbsoluteUrl, resolveScopePath } from './markdown-links.ts';
import { rawUrl } from '../../api/resources/preview-urls.ts';

let currentFolder = '/';

// Runs once per sanitised element. Relative images point at files beside the document, so they
// are served through the raw route (authorised by the cookie); links leave in a new tab.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (src && !isAbsoluteUrl(src) && !src.startsWith('#')) {
      node.setAttribute('src', rawUrl(resolveScopePath(currentFolder, src), true));
    }
  } else if (node.tagName === 'A' && isAbsoluteUrl(node.getAttribute('href') ?? '')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Markdown to HTML that is safe to put into the page: marked renders (GitHub flavour) and
 * DOMPurify removes what could run script or change the page around it — <script>, event
 * handler attributes, javascript: and data: links, forms, frames and inline styles. The page's
 * Content-Security-Policy (no inline script) is a second line of defence.
 */
export function renderMarkdown(source: string, folder: string): string {
  const html = marked.parse(source, { async: false, gfm: true });
  currentFolder = folder;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
}
