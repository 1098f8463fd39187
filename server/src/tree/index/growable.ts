/**
 * Typed arrays that grow in place and are given back at once (issue #37: memory held by design,
 * no collector calls). A table built by appending (the name index's first build has no earlier
 * table to size from) used to grow each array by copying it half as big again: every copy left
 * the old one as a dead `ArrayBuffer` that V8 frees only at its next full collection, up to twice
 * the table's size in RSS after a build (docs/benchmarks.md). Here an array lives on a resizable
 * `ArrayBuffer` that reserves address space up front: growing commits pages in place (no copy),
 * and `release` shrinks it to nothing, which unmaps its pages at once instead of when V8 collects.
 *
 * V8 reads and writes a view of a resizable buffer more slowly (~1.3–1.5× in a tight loop), so a
 * finished table copies its arrays into plain ones (`settled`) before searches use it.
 */

interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

/** ES2024's `new ArrayBuffer(length, { maxByteLength })` (Node 20 has it; lib ES2023 does not). */
const Resizable = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableBuffer;

/** Address space reserved per array: 1 GiB (256 million 4-byte entries); never resident as such. */
const RESERVE_BYTES = 2 ** 30;

export type Growable = Uint8Array | Int32Array | Uint32Array | Float64Array;

type ArrayConstructor<T extends Growable> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

function constructorOf<T extends Growable>(array: T): ArrayConstructor<T> {
  return array.constructor as ArrayConstructor<T>;
}

function resizableOf(array: Growable): ResizableBuffer | null {
  const buffer = array.buffer as ResizableBuffer;
  return buffer.resizable === true ? buffer : null;
}

/** A resizable buffer of `bytes`, or null where the reservation is refused. */
function reserved(bytes: number): ResizableBuffer | null {
  try {
    return new Resizable(bytes, { maxByteLength: Math.max(bytes, RESERVE_BYTES) });
  } catch {
    return null;
  }
}

/** An array of `length` elements (zeros) on a resizable buffer, or a plain one as a fallback. */
export function growableArray<T extends Growable>(Kind: ArrayConstructor<T>, length: number): T {
  const buffer = reserved(length * Kind.BYTES_PER_ELEMENT);
  return buffer ? new Kind(buffer, 0, length) : new Kind(length);
}

/** A Buffer of `length` bytes (zeros) on a resizable buffer, or a plain one as a fallback. */
export function growableBuffer(length: number): Buffer {
  const buffer = reserved(length);
  return buffer ? Buffer.from(buffer, 0, length) : Buffer.alloc(length);
}

/**
 * The array with room for `need` elements: the same when it has it; grown in place (same
 * buffer, a new view) when it lives on a resizable buffer with room left; else a copy half as
 * big again (the old one is then garbage until V8 collects it).
 */
export function grownArray<T extends Growable>(array: T, need: number, minStep = 64): T {
  if (need <= array.length) return array;
  const Kind = constructorOf(array);
  const length = Math.max(need, Math.floor(array.length * 1.5) + minStep);
  const buffer = resizableOf(array);
  const size = Kind.BYTES_PER_ELEMENT;
  if (buffer && array.byteOffset === 0 && need * size <= buffer.maxByteLength) {
    const bytes = Math.min(buffer.maxByteLength, length * size);
    buffer.resize(bytes);
    const grown = bytes / size;
    if (Buffer.isBuffer(array)) return Buffer.from(buffer, 0, grown) as unknown as T;
    return new Kind(buffer, 0, grown);
  }
  const next = Buffer.isBuffer(array)
    ? (Buffer.allocUnsafeSlow(length) as unknown as T)
    : new Kind(length);
  next.set(array);
  return next;
}

/** Bytes copied per step when a resizable array is settled (`settledArray`). */
const SETTLE_STEP_BYTES = 1024 * 1024;

/**
 * A resizable array as a plain copy of its first `used` elements with room for `spare` more, the
 * original given back as it is copied: the copy is filled from the end a step at a time and the
 * resizable buffer shrunk behind each step, so the two hold no more than one step twice (a
 * million names' 20 MiB blob copied whole lifted a build's peak by as much). The copy starts as
 * fresh zero pages, resident only once written. A plain array is kept as it is.
 */
export function settledArray<T extends Growable>(array: T, used: number, spare: number): T {
  const buffer = resizableOf(array);
  if (!buffer) return array;
  const Kind = constructorOf(array);
  const size = Kind.BYTES_PER_ELEMENT;
  const length = used + Math.max(0, spare);
  const isBuffer = Buffer.isBuffer(array);
  const copy = isBuffer ? (Buffer.alloc(length) as unknown as T) : new Kind(length);
  const step = Math.max(1, Math.floor(SETTLE_STEP_BYTES / size));
  const offset = array.byteOffset;
  for (let end = used; end > 0;) {
    const from = Math.max(0, end - step);
    // A view made now: views made before the buffer shrank may no longer reach this far.
    const part = isBuffer
      ? Buffer.from(buffer, offset + from, end - from)
      : new Kind(buffer, offset + from * size, end - from);
    copy.set(part, from);
    if (offset === 0) buffer.resize(from * size);
    end = from;
  }
  release(array);
  return copy;
}

/** Gives a resizable array's memory back now (its views read nothing after); else nothing. */
export function release(array: Growable): void {
  resizableOf(array)?.resize(0);
}
