import { TextDecoder } from 'node:util';

/** Longest line kept; the rest of a longer line is dropped, so a bad file cannot grow memory. */
export const MAX_LINE_LENGTH = 64 * 1024;

/** The encoding a byte-order mark announces (UTF-8 without one). */
function encodingOf(head: Uint8Array): { encoding: string; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { encoding: 'utf-8', bomLength: 3 };
  }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  return { encoding: 'utf-8', bomLength: 0 };
}

/**
 * The lines of a text stream, without their endings (LF, CRLF or a lone CR). A byte-order mark
 * picks UTF-8 or UTF-16 and is dropped; invalid bytes become U+FFFD. Memory stays at one chunk
 * plus one line (capped at MAX_LINE_LENGTH).
 */
export async function* textLines(source: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let carry = '';
  let pendingCR = false;
  let first: Uint8Array = new Uint8Array(0);

  for await (const chunk of source) {
    let bytes: Uint8Array = chunk;
    if (!decoder) {
      // Wait for three bytes to tell the encoding (a chunk may be tiny).
      first = Buffer.concat([first, chunk]);
      if (first.length < 3) continue;
      const { encoding, bomLength } = encodingOf(first);
      decoder = new TextDecoder(encoding);
      bytes = first.subarray(bomLength);
    }
    let text = decoder.decode(bytes, { stream: true });
    if (!text) continue;
    // A CRLF split across chunks: the CR already ended the line.
    if (pendingCR && text.startsWith('\n')) text = text.slice(1);
    pendingCR = text.endsWith('\r');
    const parts = (carry + text).split(/\r\n|\r|\n/);
    carry = parts.pop()!.slice(0, MAX_LINE_LENGTH);
    for (const line of parts) yield line.slice(0, MAX_LINE_LENGTH);
  }
  if (!decoder) {
    const { encoding, bomLength } = encodingOf(first);
    decoder = new TextDecoder(encoding);
    carry = decoder.decode(first.subarray(bomLength));
  } else {
    carry += decoder.decode();
  }
  if (carry) yield* carry.split(/\r\n|\r|\n/);
}
