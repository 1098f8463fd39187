import { useClipboardStore } from '../../stores/clipboard-store.ts';
import { isSamePath } from '../../paths/file-paths.ts';

/**
 * Whether an entry is on the clipboard after Ctrl+X: the listing dims it until it is pasted or
 * the clipboard holds something else, so people see what is about to move.
 */
export function useIsCut(path: string): boolean {
  return useClipboardStore(
    (s) => s.key === 'x' && s.items.some((item) => isSamePath(item.from, path)),
  );
}
