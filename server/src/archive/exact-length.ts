const ZERO_BLOCK = Buffer.alloc(64 * 1024);

/**
 * Yields exactly `size` bytes of `source`: a file that grew after it was stat'ed is cut at the size
 * the archive header already promised, one that shrank is padded with zeros (as GNU tar does), so
 * the archive stays well-formed. `onMismatch` reports either case. Being a generator, padding and
 * reading both follow the consumer's pace.
 */
export async function* exactLength(
  source: AsyncIterable<Buffer>,
  size: number,
  onMismatch: (kind: 'longer' | 'shorter') => void,
): AsyncGenerator<Buffer> {
  let remaining = size;
  for await (const chunk of source) {
    if (chunk.length >= remaining) {
      if (remaining > 0) yield chunk.subarray(0, remaining);
      if (chunk.length > remaining) onMismatch('longer');
      remaining = 0;
      // Leaving the loop closes the source, so a growing file is not read further.
      break;
    }
    remaining -= chunk.length;
    yield chunk;
  }
  if (remaining > 0) onMismatch('shorter');
  while (remaining > 0) {
    const length = Math.min(remaining, ZERO_BLOCK.length);
    remaining -= length;
    yield ZERO_BLOCK.subarray(0, length);
  }
}
