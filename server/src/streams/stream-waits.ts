/** Waiting on streams without ever outliving an aborted download. */

interface DrainEmitter {
  once(event: 'drain' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  removeListener(
    event: 'drain' | 'close' | 'error',
    listener: (...args: unknown[]) => void,
  ): unknown;
}

/** Resolves with `promise`, or rejects as soon as `signal` aborts (whichever comes first). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * Waits for a writable to ask for more data. A stream that closes or fails instead ends the wait
 * with an error, so a writer never hangs on a destroyed consumer.
 */
export function waitForDrain(stream: DrainEmitter, signal: AbortSignal): Promise<void> {
  return abortable(
    new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        stream.removeListener('drain', onDrain);
        stream.removeListener('close', onClose);
        stream.removeListener('error', onError);
      };
      const onDrain = () => {
        cleanup();
        resolve();
      };
      const onClose = () => {
        cleanup();
        reject(new Error('stream closed before draining'));
      };
      const onError = (error: unknown) => {
        cleanup();
        reject(error as Error);
      };
      stream.once('drain', onDrain);
      stream.once('close', onClose);
      stream.once('error', onError);
    }),
    signal,
  );
}
