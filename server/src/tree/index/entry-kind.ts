import mime from 'mime-types';

/** Media kinds the search grammar filters on by MIME prefix. */
export const KIND_NONE = 0;
export const KIND_IMAGE = 1;
export const KIND_AUDIO = 2;
export const KIND_VIDEO = 3;

const byExtension = new Map<string, number>();

/** The extension as `path.extname` sees it: from the last dot, not counting a leading one. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

/**
 * The media kind of a file name from its extension's registered MIME type, cached per extension:
 * the index computes it once per entry so `type:image` queries never decode names.
 */
export function kindOfName(name: string): number {
  const ext = extensionOf(name);
  if (ext === '') return KIND_NONE;
  let kind = byExtension.get(ext);
  if (kind === undefined) {
    const type = mime.lookup(ext) || '';
    kind = type.startsWith('image/')
      ? KIND_IMAGE
      : type.startsWith('audio/')
        ? KIND_AUDIO
        : type.startsWith('video/')
          ? KIND_VIDEO
          : KIND_NONE;
    // Extensions are few in practice; an unbounded map would only grow with junk names.
    if (byExtension.size < 10_000) byExtension.set(ext, kind);
  }
  return kind;
}
