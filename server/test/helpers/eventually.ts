/** Polls until `check` passes (the watcher reports a change a little after it happens). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (check(value)) return value;
    // Turns of the event loop, not time: a few seconds when the server does file-system work
    // through the thread pool meanwhile.
    if (attempt > 200_000) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Polls until `check` holds (a condition the server reaches in the background). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  await eventually(
    async () => check(),
    (yes) => yes,
  );
}
