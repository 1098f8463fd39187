import { IncomingMessage } from 'node:http';
import { Writable, type Readable } from 'node:stream';

/**
 * Node's HTTP parser copies each chunk of a request body (up to 64 KiB) into fresh memory outside
 * V8's heap, and each read from a pipe (a compressor program's output) gets fresh memory too. V8
 * frees that memory only when a collection finds the chunk's buffer dead, and it lets about 32 MiB
 * of such buffers pile up before it collects: an upload held 25–35 MiB more than the server did
 * before it (docs/benchmarks.md, "Chunks given back at once"). A writer copies each chunk into its
 * own batches at once (PositionalWriter), and a socket is done with a chunk once its write called
 * back, so the chunk can be given back to the allocator then: ES2024's
 * `ArrayBuffer.prototype.transfer` with a length of 0 frees the old buffer's memory right away and
 * leaves the chunk empty.
 *
 * Node 21 and later have `transfer`; Node 20 has it behind the V8 flag `--harmony-rab-gsab-transfer`,
 * which the server is started with (server/scripts/node-flags.mjs). Without it chunks are left to
 * the collector, as before.
 */
const transfer = (ArrayBuffer.prototype as { transfer?: (length: number) => ArrayBuffer }).transfer;

/**
 * Whether the chunks `source` gives are the reader's alone once read: an HTTP request body's are
 * made for the read and held by nobody else. A stream or generator of any other kind may hand out
 * views of a buffer it uses again.
 */
export function ownsChunks(source: unknown): source is IncomingMessage {
  return source instanceof IncomingMessage;
}

/**
 * Frees a chunk's memory now, when the chunk spans its whole buffer (a slice of a shared buffer is
 * left alone); the chunk is empty afterwards. Only for chunks nobody reads again: a request body's
 * (`ownsChunks`) once copied, a compressor's output once written (`releasingWrites`).
 */
export function releaseChunk(chunk: Uint8Array): void {
  const { buffer } = chunk;
  if (!transfer || !(buffer instanceof ArrayBuffer)) return;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  transfer.call(buffer, 0);
}

/**
 * The chunks of `source`, read without destroying it when the reader stops early (a refused or
 * failed write still answers the client). When they are its reader's alone (`ownsChunks`), each is
 * given back as soon as the reader is done with it: when it asks for the next one, or stops. A
 * reader must copy a chunk before asking for the next (PositionalWriter does).
 */
export async function* readChunks(source: Readable): AsyncGenerator<Uint8Array> {
  const release = ownsChunks(source);
  for await (const chunk of source.iterator({ destroyOnReturn: false })) {
    try {
      yield chunk as Uint8Array;
    } finally {
      if (release) releaseChunk(chunk as Uint8Array);
    }
  }
}

/**
 * A writable that passes each chunk to `output`, one at a time, and gives it back once `output`'s
 * write called back. For a stream whose chunks that span their buffer are nobody else's (a
 * compressor program's output, zlib's: archive/archive-formats.ts); `output` must be done with a
 * chunk at its callback (a socket, an HTTP response, a file). Ending it ends `output`; destroying
 * it with an error destroys `output`, and an error of `output` destroys it: `output` is not a stage
 * of the pipeline this is one of, so its 'error' is heard here, never left unhandled.
 */
export function releasingWrites(output: Writable): Writable {
  const writes: Writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      output.write(chunk, (error) => {
        if (!error) releaseChunk(chunk);
        callback(error ?? undefined);
      });
    },
    final(callback) {
      output.end(() => callback());
    },
    destroy(error, callback) {
      if (error) output.destroy(error);
      callback(error);
    },
  });
  output.on('error', (error) => writes.destroy(error));
  return writes;
}
