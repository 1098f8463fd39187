import { useCallback, useEffect, useRef, useState } from 'react';
import { requestPostPreview } from '../../api/sites/post-preview.ts';
import { UI_LIMITS } from '../../config/ui-limits.ts';

/** Where the live preview stands: the page to show, and whether a newer one is being made. */
export interface LivePreview {
  url: string | null;
  isUpdating: boolean;
  failed: boolean;
  /** Asks for a preview of `text` once typing pauses; a newer request aborts an older one. */
  schedule(text: () => string): void;
}

/**
 * The editor's live preview: the unsaved text is posted to …/preview after a pause in typing
 * (UI_LIMITS.sitePreviewDebounceMs), and the answer's page replaces the frame's. Only the latest
 * request counts: an earlier one still running is aborted.
 */
export function useLivePreview(site: string, path: string): LivePreview {
  const [url, setUrl] = useState<string | null>(null);
  // The saved post's preview is asked for on mount.
  const [isUpdating, setUpdating] = useState(true);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef<AbortController | null>(null);

  const render = useCallback(
    (content: string | undefined) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      requestPostPreview(site, path, content, controller.signal).then(
        (preview) => {
          if (controller.signal.aborted) return;
          // A new query string makes the frame load again even when the server reuses the URL.
          const separator = preview.url.includes('?') ? '&' : '?';
          setUrl(`${preview.url}${separator}v=${Date.now()}`);
          setFailed(false);
          setUpdating(false);
        },
        () => {
          if (controller.signal.aborted) return;
          setFailed(true);
          setUpdating(false);
        },
      );
    },
    [site, path],
  );

  // The saved post first, before anything is typed.
  useEffect(() => {
    render(undefined);
    return () => {
      clearTimeout(timer.current);
      running.current?.abort();
    };
  }, [render]);

  const schedule = useCallback(
    (text: () => string) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        setUpdating(true);
        render(text());
      }, UI_LIMITS.sitePreviewDebounceMs);
    },
    [render],
  );

  return { url, isUpdating, failed, schedule };
}
