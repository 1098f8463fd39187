// SEAM (owned by the operations helper; replace this whole file).
import type { ClipboardItem } from '../../stores/clipboard-store.ts';

/**
 * Moves or copies entries into a folder (scope path ending with "/"), asking replace-or-rename on
 * a clash, then navigates or reloads as SPEC.md section 4 says.
 */
export function transferItems(
  _action: 'copy' | 'move',
  _items: ClipboardItem[],
  _destination: string,
): Promise<void> {
  return Promise.reject(new Error('move and copy are not built yet'));
}

/** Ctrl+V: pastes the clipboard into a folder (same origin → rename; after a cut it is cleared). */
export function pasteClipboard(_folder: string): Promise<void> {
  return Promise.reject(new Error('paste is not built yet'));
}
