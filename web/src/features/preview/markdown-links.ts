/** Whether a URL has a scheme ("https:", "mailto:") or is protocol-relative ("//host"). */
export function isAbsoluteUrl(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url);
}

/**
 * Resolves a relative reference of a document against its folder's scope path:
 * ("/docs/", "../img/a b.png") → "/img/a b.png". It never climbs above the scope root.
 */
export function resolveScopePath(folder: string, reference: string): string {
  const base = new URL(`file://${folder.endsWith('/') ? folder : `${folder}/`}`);
  return decodeURIComponent(new URL(reference, base).pathname);
}
