import type { Readable } from 'node:stream';
import { readChunks } from '../../streams/chunk-release.ts';

/**
 * Passes a body through until more than `allowed` bytes went by, then fails it with `refusal()`:
 * a POST or PUT without Content-Length cannot be judged before it arrives, and the atomic write
 * it feeds then leaves nothing behind. Lazy: nothing is read before the write pulls, and the
 * request is not destroyed on refusal, so the reply (507) still reaches the client.
 */
export async function* limitBytes(
  body: Readable,
  allowed: number,
  refusal: () => Error,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const bytes of readChunks(body)) {
    seen += bytes.length;
    if (seen > allowed) throw refusal();
    yield bytes;
  }
}
