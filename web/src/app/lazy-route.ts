import type { ComponentType } from 'react';
import { loadChunk } from './load-chunk.ts';

/** A route module loaded on demand, with the chunk time-out of loadChunk. */
export function lazyRoute<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: pick(await loadChunk(load)) });
}
