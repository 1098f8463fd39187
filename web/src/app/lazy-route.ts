import type { ComponentType } from 'react';
import { LIMITS } from '@cabinet/protocol';

/**
 * A route module loaded on demand. Loading a script chunk gives up after 120 s (SPEC.md section 9),
 * so a stalled network shows the error page instead of waiting for ever.
 */
export function lazyRoute<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): () => Promise<{ Component: ComponentType }> {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error('Loading a part of the application timed out')),
        LIMITS.chunkLoadTimeoutMs,
      );
    });
    try {
      return { Component: pick(await Promise.race([load(), timeout])) };
    } finally {
      clearTimeout(timer);
    }
  };
}
