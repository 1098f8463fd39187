import { useEffect, useRef } from 'react';
import { useDialogStore } from '../../stores/dialog-store.ts';
import type { PreviewNavigation } from './use-preview-navigation.ts';
import { logicalArrowKey } from '../../i18n/visual-keys.ts';

/** Elements whose own keys must win: fields, players (arrows seek), buttons and links (Enter). */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, audio, video, .cm-editor')) return true;
  return key === 'Enter' && target.closest('button, a, summary') !== null;
}

/**
 * Whether a key press is free for the preview: no modifier, no dialog open, and not aimed at an
 * element that handles it itself.
 */
export function isPreviewKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  if (event.isComposing) return false;
  if (useDialogStore.getState().dialog || document.querySelector('dialog[open]')) return false;
  return !ownsKey(event.target, event.key);
}

/**
 * Preview keys: Enter or Right for the next item, Left for the previous (mirrored in right-to-left),
 * Esc back to the folder. Nothing happens while a dialog is open (its Esc closes it) or while a
 * field, the editor or a player has focus. The editor's page uses only Esc (`keys: 'escape'`).
 */
export function usePreviewKeys(
  navigation: PreviewNavigation,
  keys: 'all' | 'escape' = 'all',
): void {
  const latest = useRef(navigation);
  useEffect(() => {
    latest.current = navigation;
  });

  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.shiftKey || !isPreviewKey(event)) return;
      const nav = latest.current;
      if (keys === 'escape' && event.key !== 'Escape') return;
      // Right-to-left: Next sits on the left, and ArrowLeft goes there (logicalArrowKey).
      const key = logicalArrowKey(event.key);
      if (key === 'ArrowRight' || key === 'Enter') {
        if (!nav.hasNext) return;
        nav.goNext();
      } else if (key === 'ArrowLeft') {
        if (!nav.hasPrevious) return;
        nav.goPrevious();
      } else if (event.key === 'Escape') {
        nav.close();
      } else {
        return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [keys]);
}
