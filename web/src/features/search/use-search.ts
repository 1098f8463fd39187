import { useCallback, useEffect, useRef, useState } from 'react';
import type { SearchHit } from '@cabinet/protocol';
import { streamSearch } from '../../api/search/search-stream.ts';

export type SearchStatus = 'idle' | 'searching' | 'done' | 'error';

interface Progress {
  status: SearchStatus;
  /** Hits received so far: one array per search, appended in place (a broad search brings many). */
  hits: SearchHit[];
  /** Its length when last told, so that each batch renders. */
  count: number;
  /** The server's or the network's message when the search failed. */
  error: string;
}

const IDLE: Progress = { status: 'idle', hits: [], count: 0, error: '' };

/**
 * One search at a time in a folder: `run` starts it (ending the one before), `clear` ends it and
 * empties the results, as typing does. Hits arrive in batches as the server
 * streams them and are appended in place, so a search with a million hits costs no copying.
 * Leaving (unmount) ends the request, which stops the search on the server.
 */
export function useSearch(folder: string) {
  const [progress, setProgress] = useState<Progress>(IDLE);
  const running = useRef<AbortController | null>(null);

  const clear = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setProgress(IDLE);
  }, []);

  const run = useCallback(
    (query: string) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const found: SearchHit[] = [];
      setProgress({ status: 'searching', hits: found, count: 0, error: '' });
      void (async () => {
        try {
          for await (const batch of streamSearch(folder, query, controller.signal)) {
            if (controller.signal.aborted) return;
            for (const hit of batch) found.push(hit);
            setProgress((p) => ({ ...p, count: found.length }));
          }
          if (!controller.signal.aborted) setProgress((p) => ({ ...p, status: 'done' }));
        } catch (error) {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setProgress((p) => ({ ...p, status: 'error', error: message }));
        }
      })();
    },
    [folder],
  );

  useEffect(() => () => running.current?.abort(), []);
  return { ...progress, run, clear };
}
