import mime from 'mime-types';

/**
 * Types a browser would run as a document or a script when opened: HTML, XHTML, XML (which can
 * carry XHTML and XSLT), JavaScript. Shown inline they are sent as text/plain, so viewing one in a
 * tab shows its source instead of running it (the sandbox CSP is a second wall).
 */
function isActiveContent(type: string): boolean {
  return (
    type === 'text/html' ||
    type === 'application/xhtml+xml' ||
    type === 'text/xml' ||
    type === 'application/xml' ||
    type === 'text/xsl' ||
    type === 'application/xslt+xml' ||
    type === 'text/javascript' ||
    type === 'application/javascript' ||
    type === 'application/ecmascript' ||
    (type.endsWith('+xml') && type !== 'image/svg+xml')
  );
}

/** True when the bytes look like text: no control codes below tab, no NUL. */
export function looksLikeText(head: Buffer): boolean {
  for (const byte of head)
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) return false;
  return true;
}

/**
 * The Content-Type of a file shown inline (`?inline=true`): from the name, with a charset for
 * text; active content as text/plain; unknown names as text/plain when the first bytes look like
 * text, else application/octet-stream. SVG keeps image/svg+xml so <img> can show it: the sandbox
 * CSP sent with every download stops its scripts when it is opened on its own.
 */
export function inlineContentType(name: string, head: Buffer): string {
  const type = mime.lookup(name);
  if (type === false) {
    return looksLikeText(head) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  }
  if (isActiveContent(type)) return 'text/plain; charset=utf-8';
  if (type.startsWith('text/')) return `${type}; charset=utf-8`;
  return type;
}
