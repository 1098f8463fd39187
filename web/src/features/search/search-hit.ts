const TYPES: [RegExp, string][] = [
  [/\.(jpe?g|png|gif|webp|avif|bmp|svg|tiff?|heic|ico)$/i, 'image'],
  [/\.(mp4|webm|mkv|mov|avi|m4v|ogv|mpe?g)$/i, 'video'],
  [/\.(mp3|flac|wav|ogg|oga|m4a|aac|opus|wma)$/i, 'audio'],
  [/\.pdf$/i, 'pdf'],
  [/\.(txt|md|csv|json|ya?ml|xml|html?|css|[cm]?[jt]sx?|py|go|rs|sh|log|ini|toml)$/i, 'text'],
];

/** A result's name and the folder it is in (relative to the searched folder, "" when directly in it). */
export function hitParts(path: string): { name: string; parent: string } {
  const cut = path.lastIndexOf('/');
  return cut < 0
    ? { name: path, parent: '' }
    : { name: path.slice(cut + 1), parent: path.slice(0, cut) };
}

/**
 * What a result looks like for its icon: search lines carry no type, so it is guessed from the
 * name (the listing, once opened, knows better).
 */
export function hitEntry(hit: { dir: boolean; path: string }) {
  const { name } = hitParts(hit.path);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const type = hit.dir ? '' : (TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'blob');
  return { isDir: hit.dir, type, extension };
}
