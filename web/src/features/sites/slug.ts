/**
 * The slug a title gives by default, as the server makes it when none is sent: letters and
 * digits of any script kept and lower-cased, accents dropped, everything else one hyphen.
 * Only a preview: the dialog sends the slug the user sees, and the server has the last word.
 */
export function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Whether a typed slug can name a file: no slash, no dot at its start, not empty. */
export function isUsableSlug(slug: string): boolean {
  return /^[^/\\.\s][^/\\\s]*$/.test(slug);
}
