import type { Readable, Writable } from 'node:stream';

/** A piece of the reply as it was yielded, and the reusable buffer it lies in (if any). */
interface Sent {
  readonly bytes: number;
  readonly chunk: Buffer | undefined;
}

/**
 * Chunks that finished replies have written, for the next replies: without it every reply
 * allocated its own two or three, and a listing phase of a few hundred 100,000-entry replies
 * left them as garbage outside the heap (array buffers grew by 25–35 MiB, on top of the heap's
 * own garbage) until V8 happened to collect. Bounded in bytes; one per server (the routes own it).
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limit: number) {}

  /** A chunk of at least `bytes` that no reply uses, if one is kept. */
  take(bytes: number): Buffer | undefined {
    const at = this.free.findIndex((chunk) => chunk.length >= bytes);
    if (at < 0) return undefined;
    const [chunk] = this.free.splice(at, 1);
    this.bytes -= chunk!.length;
    return chunk;
  }

  /** Keeps a chunk whose bytes have left the process, unless the pool is full. */
  give(chunk: Buffer): void {
    if (this.bytes + chunk.length > this.limit) return;
    this.free.push(chunk);
    this.bytes += chunk.length;
  }

  /** Bytes kept (for tests). */
  get kept(): number {
    return this.bytes;
  }
}

/**
 * Buffers for the chunks of one streamed reply, reused once the socket has written them
 * (docs/benchmarks.md, "Memory (issue #30)"). A 100,000-entry listing is ~80 chunks of 256 KiB;
 * allocated fresh, each is garbage outside V8's heap the moment it is written, and V8 frees such
 * buffers only at its next collection: with four replies in flight that was 20–60 MiB of dead
 * chunks in RSS. Reused, a reply holds two or three.
 *
 * The reply's pieces go through `carry` in order, and what is not written yet is always the newest
 * bytes: those waiting in the stream (`readableLength`) and in the response (`writableLength`: what
 * it holds before its socket plus what the socket has not handed to the kernel, chunk framing
 * included, so never less than the payload left). A piece older than that many bytes has left the
 * process, and its buffer can be filled again. A response gone (destroyed) reuses nothing.
 */
export class ReplyChunks {
  /** Chunks known written, to be handed out again. */
  private readonly free: Buffer[] = [];
  /** Pieces yielded and not known written, oldest first. */
  private readonly sent: Sent[] = [];
  /** Chunks handed out by `take`, whether yielded yet or not. */
  private readonly lent = new Set<Buffer>();
  private source: Readable | undefined;
  private target: Writable | undefined;
  /** Buffers allocated so far (for tests). */
  allocated = 0;
  private finished = false;

  /** `pool`: where chunks come from when this reply has none free, and go when it finished. */
  constructor(private readonly pool?: ChunkPool) {}

  /**
   * The stream the pieces are yielded into and the response it is piped to. Once the response has
   * finished (its last bytes handed to the kernel), every chunk goes to the pool; a response cut
   * short (closed unfinished) gives none back: a write of it may still hold one.
   */
  attach(source: Readable, target: Writable): void {
    this.source = source;
    this.target = target;
    target.once('finish', () => this.recycle());
  }

  /**
   * Gives every chunk to the pool: for a reply whose pieces were all copied or written (the
   * response finished, or the pieces were joined into one buffer). Nothing is taken after.
   */
  recycle(): void {
    if (this.finished) return;
    this.finished = true;
    const chunks = new Set([...this.free, ...this.lent]);
    this.free.length = 0;
    this.lent.clear();
    this.sent.length = 0;
    if (this.pool) for (const chunk of chunks) this.pool.give(chunk);
  }

  /** Passes a reply's pieces through, noting each one's size and buffer. */
  async *carry(pieces: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const piece of pieces) {
      let chunk: Buffer | undefined;
      for (const lent of this.lent) if (lent.buffer === piece.buffer) chunk = lent;
      this.sent.push({ bytes: piece.length, chunk });
      yield piece;
    }
  }

  /** A buffer of at least `bytes` whose earlier contents (if any) were written already. */
  take(bytes: number): Buffer {
    this.release();
    // The writers ask for the same size nearly always: the free list is one or two long.
    const reusable = this.free.findIndex((chunk) => chunk.length >= bytes);
    let chunk: Buffer;
    if (reusable >= 0) {
      chunk = this.free[reusable]!;
      this.free.splice(reusable, 1);
    } else {
      const pooled = this.finished ? undefined : this.pool?.take(bytes);
      if (pooled) chunk = pooled;
      else {
        chunk = Buffer.allocUnsafeSlow(bytes);
        this.allocated++;
      }
    }
    this.lent.add(chunk);
    return chunk;
  }

  /** Frees the chunks of the pieces older than the bytes still waiting to be written. */
  private release(): void {
    const { source, target, sent } = this;
    if (!source || !target || target.destroyed) return;
    const waiting = source.readableLength + target.writableLength;
    if (!Number.isFinite(waiting)) return;
    // Pieces from the newest back until they cover what waits: those may not be written yet.
    let covered = 0;
    let keep = sent.length;
    while (keep > 0 && covered < waiting) covered += sent[--keep]!.bytes;
    const written = sent.splice(0, keep);
    for (const { chunk } of written) {
      if (!chunk || sent.some((piece) => piece.chunk === chunk)) continue;
      this.lent.delete(chunk);
      this.free.push(chunk);
    }
  }
}
