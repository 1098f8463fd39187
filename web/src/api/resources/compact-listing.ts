import {
  COMPACT_FLAG_DIR,
  COMPACT_FLAG_SYMLINK,
  CompactListingBatch,
  CompactListingHead,
  CompactListingTotals,
  type Resource,
  type ResourceItem,
} from '@cabinet/protocol';
import { parseReply } from '../parse-reply.ts';

/** A compact listing that does not fit its schema (the caller reports it as a bad reply). */
export class CompactListingError extends Error {}

/**
 * The entries of one batch line (protocol/src/compact-listing.ts) as the default reply's items:
 * `path` is the head's `base` and the name, `extension` the name from its last dot.
 */
export function decodeCompactBatch(head: CompactListingHead, line: string): ResourceItem[] {
  const batch = parseReply(CompactListingBatch, line);
  const count = batch?.name.length ?? 0;
  if (
    !batch ||
    batch.size.length !== count ||
    batch.modified.length !== count ||
    batch.mode.length !== count ||
    batch.flags.length !== count ||
    batch.type.length !== count
  ) {
    throw new CompactListingError('malformed batch');
  }
  const subtitles = new Map(batch.subtitles);
  const items: ResourceItem[] = new Array<ResourceItem>(count);
  for (let k = 0; k < count; k++) {
    const name = batch.name[k]!;
    const dot = name.lastIndexOf('.');
    const type = head.types[batch.type[k]!];
    if (type === undefined) throw new CompactListingError('unknown type code');
    const item: ResourceItem = {
      path: head.base + name,
      name,
      size: batch.size[k]!,
      extension: dot < 0 ? '' : name.slice(dot),
      modified: batch.modified[k]!,
      mode: batch.mode[k]!,
      isDir: (batch.flags[k]! & COMPACT_FLAG_DIR) !== 0,
      isSymlink: (batch.flags[k]! & COMPACT_FLAG_SYMLINK) !== 0,
      type,
    };
    const found = subtitles.get(k);
    if (found) item.subtitles = found;
    items[k] = item;
  }
  return items;
}

/** The folder as the default reply gives it, from the head and the entries read so far. */
function resourceOf(head: CompactListingHead, items: ResourceItem[]): Resource {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the compact-only fields go
  const { count, base, types, ...folder } = head;
  return { ...folder, items };
}

/**
 * Splits a byte stream into its text lines (the last one may lack its newline). A line's pieces
 * are joined once it ends: appending each piece to one pending string and slicing lines off it
 * made every search for the next newline walk a string megabytes long.
 */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let pieces: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, newline));
      const line = pieces.length === 1 ? pieces[0]! : pieces.join('');
      pieces = [];
      start = newline + 1;
      if (line) yield line;
    }
    if (start < text.length) pieces.push(text.slice(start));
    if (done) break;
  }
  const last = pieces.join('');
  if (last) yield last;
}

/**
 * Gives the page a turn: a task of its own (not a microtask), so that React can commit what it was
 * handed and input is handled. A loopback reply is often all buffered already, and reading it
 * resolves promise after promise without ever leaving the microtask queue: the first rows would
 * then wait, unpainted, for the whole folder to be decoded.
 */
function pageTurn(afterPaint: boolean): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    const post = () => channel.port2.postMessage(null);
    // A hidden page paints no frames; it is not waited for.
    if (afterPaint && typeof requestAnimationFrame === 'function' && !document.hidden) {
      requestAnimationFrame(post);
    } else {
      post();
    }
  });
}

/**
 * Reads a compact listing reply into the Resource the default form would have given.
 * `onFirstRows` hears the folder with the first batch's entries as soon as they are decoded, and
 * the page paints them before the rest is decoded; later batches each leave the page a turn, so
 * scrolling and clicks stay live while a big folder arrives.
 */
export async function readCompactListing(
  body: ReadableStream<Uint8Array>,
  onFirstRows?: (partial: Resource) => void,
): Promise<Resource> {
  let head: CompactListingHead | undefined;
  const items: ResourceItem[] = [];
  for await (const line of lines(body)) {
    if (!head) {
      head = parseReply(CompactListingHead, line);
      if (!head) throw new CompactListingError('malformed head');
      continue;
    }
    if (line.startsWith('{"count"')) {
      // Entries that vanished while a big folder was read: the counts of what was sent.
      const totals = parseReply(CompactListingTotals, line);
      if (!totals) throw new CompactListingError('malformed totals');
      head = { ...head, ...totals };
      continue;
    }
    const batch = decodeCompactBatch(head, line);
    const first = items.length === 0;
    for (const item of batch) items.push(item);
    if (first && items.length < head.count && onFirstRows) {
      onFirstRows(resourceOf(head, items.slice()));
      await pageTurn(true);
    } else if (items.length < head.count) {
      await pageTurn(false);
    }
  }
  if (!head) throw new CompactListingError('empty reply');
  if (items.length !== head.count) throw new CompactListingError('cut reply');
  return resourceOf(head, items);
}
