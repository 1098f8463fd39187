import { createRequire } from 'node:module';
import type { Element, Node } from '@xmldom/xmldom';
import { errors } from '../../errors.ts';

/**
 * The XML library, loaded at the first WebDAV body rather than at start: a server nobody mounts
 * over WebDAV never holds it (~4 MiB of RSS, docs/benchmarks.md). Node caches it after that.
 */
const load = createRequire(import.meta.url);
const xmldom = (): typeof import('@xmldom/xmldom') => load('@xmldom/xmldom');

/** The DAV: namespace of RFC 4918. */
export const DAV = 'DAV:';

/** A property name: namespace and local name (`{DAV:}getetag`). */
export interface PropName {
  ns: string;
  local: string;
}

export const keyOf = (name: PropName) => `{${name.ns}}${name.local}`;

export function nameOfKey(key: string): PropName {
  const close = key.indexOf('}');
  return { ns: key.slice(1, close), local: key.slice(close + 1) };
}

/** Escapes text for element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/**
 * A property element with its own namespace declaration, so it reads the same anywhere in a reply
 * (the empty namespace included: `<x xmlns=""/>`).
 */
export function propElement(name: PropName, inner = ''): string {
  if (name.ns === DAV)
    return inner ? `<D:${name.local}>${inner}</D:${name.local}>` : `<D:${name.local}/>`;
  const ns = `xmlns="${escapeXml(name.ns)}"`;
  return inner ? `<${name.local} ${ns}>${inner}</${name.local}>` : `<${name.local} ${ns}/>`;
}

/**
 * Parses a request body. Documents with a DOCTYPE are refused outright (no entity expansion of any
 * kind); malformed XML is a 400.
 */
export function parseXml(text: string): Element {
  if (/<!DOCTYPE/i.test(text)) throw errors.badRequest('DOCTYPE is not allowed');
  let failed = false;
  let root: Element | null = null;
  try {
    const doc = new (xmldom().DOMParser)({
      onError: (level) => {
        if (level !== 'warning') failed = true;
      },
    }).parseFromString(text, 'text/xml');
    root = doc.documentElement;
  } catch {
    failed = true; // the parser throws on fatal errors
  }
  if (failed || !root) throw errors.badRequest('malformed XML');
  return root;
}

/** The element children of a node. */
export function childElements(node: Node): Element[] {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) out.push(child as Element);
  }
  return out;
}

export function isDav(element: Element, local: string): boolean {
  return element.namespaceURI === DAV && element.localName === local;
}

export function nameOf(element: Element): PropName {
  return { ns: element.namespaceURI ?? '', local: element.localName ?? element.nodeName };
}

/** Serialises an element with the namespace declarations it needs to stand alone. */
export function serialize(element: Element): string {
  return new (xmldom().XMLSerializer)().serializeToString(element);
}

/** The XML declaration and `D:multistatus` around responses. */
export function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`;
}

/** A `D:error` body with one precondition element (RFC 4918 section 16). */
export function errorBody(condition: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:${condition}/></D:error>`;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  423: 'Locked',
  424: 'Failed Dependency',
};

export function statusLine(status: number): string {
  return `<D:status>HTTP/1.1 ${status} ${REASONS[status] ?? ''}</D:status>`;
}
