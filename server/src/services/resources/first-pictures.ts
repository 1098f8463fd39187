import { familyOf } from '../../preview/formats.ts';
import { isResizable } from '../../preview/image-convert.ts';
import { columnsOf } from './listed-columns.ts';
import type { Listing } from './listing.ts';

/** What a listing's first screen will ask pictures of (PreviewService.warm). */
export interface FirstPictures {
  /** Names of the first images sharp resizes, in the order the listing shows them. */
  readonly images: readonly string[];
  /** Whether any of the files looked at gets a picture made by sharp (after a decoder or not). */
  readonly pictured: boolean;
}

/** Files looked at, at most: a first screen shows fewer, and a big folder costs nothing more. */
const LOOKED_AT = 256;

/**
 * The first `count` resizable images among a listing's first LOOKED_AT files, in its order, read
 * from its first part only: a streamed listing's first part holds its first entries in the order
 * they are written, so nothing waits for the rest of a big folder. A folder of text files, the
 * case of most listings an API client asks for, gives no names and `pictured: false`: no image
 * library is loaded for it. GIF, SVG and the other images sent as they are need none either.
 */
export function firstPictures(listing: Listing, count: number): FirstPictures {
  const part = listing.items.kind === 'streamed' ? listing.items.first : listing.items;
  const columns = columnsOf(part);
  const images: string[] = [];
  let pictured = false;
  let files = 0;
  for (let k = 0; k < part.order.length && images.length < count && files < LOOKED_AT; k++) {
    const i = part.order[k]!;
    if (columns.isDir(i)) continue;
    files++;
    const name = columns.name(i);
    const family = familyOf(name);
    // Every extension sharp resizes is of the image family; the rest of it is sent as it is.
    const resizable = isResizable(name);
    if (!resizable && (family === undefined || family === 'image')) continue;
    pictured = true;
    if (resizable) images.push(name);
  }
  return { images, pictured };
}
