import { useEffect } from 'react';

/**
 * Ctrl+S (⌘S) saves with `save` while the calling screen is mounted. The browser's own "save
 * page" is always prevented, even when `save` does nothing (read-only): it would save Cabinet's
 * page, not the file.
 */
export function useSaveShortcut(save: () => unknown): void {
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's') {
        return;
      }
      event.preventDefault();
      void save();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [save]);
}
