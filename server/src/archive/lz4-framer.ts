import { createRequire } from 'node:module';
import { Transform, type TransformCallback } from 'node:stream';

// Loaded with the first framer, not with the server: most servers never make a .tar.lz4.
const load = createRequire(import.meta.url);
let lz4: typeof import('lz4-napi') | undefined;
const compressFrame = (data: Buffer) =>
  (lz4 ??= load('lz4-napi') as typeof import('lz4-napi')).compressFrame(data);

/** Bytes per LZ4 frame: big enough for a good ratio, small enough to keep memory flat. */
const FRAME_INPUT_SIZE = 1024 * 1024;

/**
 * The LZ4 frame format (`.lz4`) made in-process: input is cut into 1 MiB pieces, each compressed
 * on libuv's thread pool into a complete frame (lz4-napi). The `lz4` tool reads concatenated
 * frames as one stream, and one piece in flight at a time bounds memory.
 */
export class Lz4Framer extends Transform {
  private pending: Buffer[] = [];
  private pendingLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    if (this.pendingLength < FRAME_INPUT_SIZE) {
      callback();
      return;
    }
    const all = Buffer.concat(this.pending, this.pendingLength);
    const whole = all.length - (all.length % FRAME_INPUT_SIZE);
    const rest = all.subarray(whole);
    this.pending = rest.length ? [Buffer.from(rest)] : [];
    this.pendingLength = rest.length;
    this.compressPieces(all.subarray(0, whole)).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    const rest = Buffer.concat(this.pending, this.pendingLength);
    this.pending = [];
    this.pendingLength = 0;
    if (!rest.length) {
      callback();
      return;
    }
    compressFrame(rest).then((frame) => callback(null, frame), callback);
  }

  private async compressPieces(data: Buffer): Promise<void> {
    for (let offset = 0; offset < data.length; offset += FRAME_INPUT_SIZE) {
      this.push(await compressFrame(data.subarray(offset, offset + FRAME_INPUT_SIZE)));
    }
  }
}
