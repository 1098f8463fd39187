import { lazy, type ComponentType } from 'react';
import { completeEnglish } from '../i18n/i18n.ts';
import { UI_LIMITS } from '../config/ui-limits.ts';

/**
 * Loads a part of the application on demand. A chunk that has not arrived after
 * UI_LIMITS.chunkLoadTimeoutMs (120 s) fails, so a stalled network ends in an error instead of
 * waiting for ever.
 */
export async function loadChunk<Module>(load: () => Promise<Module>): Promise<Module> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error('Loading a part of the application timed out')),
      UI_LIMITS.chunkLoadTimeoutMs,
    );
  });
  try {
    // The part's English strings come with the rest of the English catalogue (i18n.ts).
    const [module] = await Promise.race([Promise.all([load(), completeEnglish()]), timeout]);
    return module;
  } finally {
    clearTimeout(timer);
  }
}

/** A component whose chunk is fetched when it first renders; render it inside <Suspense>. */
export function lazyComponent<Module, Props extends object>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<Props>,
) {
  return lazy(async () => ({ default: pick(await loadChunk(load)) }));
}

/**
 * Fetches chunks once the browser is idle after the first screen, so that their first use (a
 * dialog, an upload) does not wait for the network. A failed preload is tried again on use.
 */
export function preloadWhenIdle(loads: ReadonlyArray<() => Promise<unknown>>): () => void {
  const run = () => {
    for (const load of loads) load().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 200 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 50);
  return () => clearTimeout(timer);
}
