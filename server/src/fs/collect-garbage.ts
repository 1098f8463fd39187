/**
 * Runs a full garbage collection when the process was started with `--expose-gc` (as `npm start`
 * and the `cabinet` binary start it: server/scripts/node-flags.mjs); does nothing otherwise (tests
 * run the server in their own process).
 *
 * For the end of an index build: the arrays a build outgrew and the table a rebuild replaced are
 * tens of megabytes whose memory V8 hands back only at its next full collection, and an idle
 * server may not run one for a long time, so the process would keep them resident. One collection
 * right then costs a few tens of milliseconds once per build.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Runs one young-generation collection (a scavenge) under the same `--expose-gc`; does nothing
 * without it. For request bodies: see WriteBuffers (fs/write-buffers.ts).
 */
export function collectYoungGeneration(): void {
  (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc?.({ type: 'minor' });
}
