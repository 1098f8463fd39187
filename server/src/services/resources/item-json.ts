import { extensionOf } from '../../file-kinds/file-type.ts';
import { formatTime, goFileMode } from './file-info.ts';

/** One listed child's fields, as `itemTail` writes them. */
export interface ItemFields {
  readonly name: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The child's st_mode. */
  readonly mode: number;
  readonly isDir: boolean;
  readonly isSymlink: boolean;
  readonly type: string;
  readonly subtitles?: readonly string[] | undefined;
}

/**
 * A listed item's JSON after `{"path":"<escaped folder path>/`: the escaped name's rest, then every
 * other field in the order `fileInfo` gives them. Fresh listings (listing.ts) and the listing
 * cache (listing-cache.ts) both write items with it, so a cached reply is byte for byte a fresh
 * one. The name is escaped once for both `path` and `name`; plain concatenation is measurably
 * faster than a template in this, the hot loop of big listings.
 */
export function itemTail(item: ItemFields): string {
  const quoted = JSON.stringify(item.name);
  const extension = extensionOf(item.name);
  return (
    quoted.slice(1) +
    ',"name":' +
    quoted +
    ',"size":' +
    item.size +
    ',"extension":' +
    // The extension is the name's end: when nothing in the name needed escaping, neither does it.
    (quoted.length === item.name.length + 2 ? '"' + extension + '"' : JSON.stringify(extension)) +
    ',"modified":"' +
    formatTime(item.mtimeMs) +
    '","mode":' +
    goFileMode(item.mode) +
    ',"isDir":' +
    item.isDir +
    ',"isSymlink":' +
    item.isSymlink +
    ',"type":"' +
    item.type +
    (item.subtitles ? `","subtitles":${JSON.stringify(item.subtitles)}}` : '"}')
  );
}
