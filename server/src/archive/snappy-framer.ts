import { Transform, type TransformCallback } from 'node:stream';
import { createRequire } from 'node:module';

// Loaded with the first framer, not with the server: most servers never make a .tar.sz.
const load = createRequire(import.meta.url);
let natives:
  | {
      crc32c: typeof import('@node-rs/crc32').crc32c;
      compressSync: typeof import('snappy').compressSync;
    }
  | undefined;
function native() {
  natives ??= {
    crc32c: (load('@node-rs/crc32') as typeof import('@node-rs/crc32')).crc32c,
    compressSync: (load('snappy') as typeof import('snappy')).compressSync,
  };
  return natives;
}
const crc32c = (data: Uint8Array) => native().crc32c(data);
const compressSync = (data: Buffer) => native().compressSync(data);

/** The framing format's limit on uncompressed bytes per chunk. */
const BLOCK_SIZE = 64 * 1024;
const STREAM_IDENTIFIER = Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
const CHUNK_COMPRESSED = 0x00;
const CHUNK_UNCOMPRESSED = 0x01;

/** The framing format's masked CRC-32C, so checksums of data containing CRCs stay useful. */
export function maskedCrc32c(data: Uint8Array): number {
  const crc = crc32c(data) >>> 0;
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

function frameChunk(block: Buffer): Buffer {
  const compressed = compressSync(block);
  // Keep the compressed form only when it saves at least 1/8, as the reference encoder does.
  const useCompressed = compressed.length < block.length - (block.length >>> 3);
  const body = useCompressed ? compressed : block;
  const header = Buffer.allocUnsafe(8);
  const length = body.length + 4;
  header[0] = useCompressed ? CHUNK_COMPRESSED : CHUNK_UNCOMPRESSED;
  header.writeUIntLE(length, 1, 3);
  header.writeUInt32LE(maskedCrc32c(block), 4);
  return Buffer.concat([header, body]);
}

/**
 * Snappy's framing format (`.sz`: stream identifier, then chunks of at most 64 KiB with masked
 * CRC-32C), which snzip, python-snappy and Go's snappy reader unpack. The raw block API alone is
 * not a file format. Input is cut into full 64 KiB blocks, so memory stays at one block.
 */
export class SnappyFramer extends Transform {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private started = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.start();
      this.pending.push(chunk);
      this.pendingLength += chunk.length;
      if (this.pendingLength >= BLOCK_SIZE) {
        let all = Buffer.concat(this.pending, this.pendingLength);
        while (all.length >= BLOCK_SIZE) {
          this.push(frameChunk(all.subarray(0, BLOCK_SIZE)));
          all = all.subarray(BLOCK_SIZE);
        }
        this.pending = all.length ? [Buffer.from(all)] : [];
        this.pendingLength = all.length;
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.start();
      if (this.pendingLength > 0) this.push(frameChunk(Buffer.concat(this.pending)));
      this.pending = [];
      this.pendingLength = 0;
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.push(STREAM_IDENTIFIER);
  }
}
