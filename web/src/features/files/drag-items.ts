import type { ResourceItem } from '@cabinet/protocol';

/** The drag type of listing entries, so drops can tell them from desktop files and links. */
export const ENTRY_DRAG_TYPE = 'application/x-cabinet-entries';

/**
 * Entries being dragged in this window. The drag data itself cannot be read before the drop, yet a
 * folder must know during dragover whether it is one of the dragged entries (a folder cannot move
 * into itself), so the entries are kept here from dragstart to dragend.
 */
let dragged: ResourceItem[] = [];

export function startEntryDrag(data: DataTransfer, items: ResourceItem[]): void {
  dragged = items;
  data.effectAllowed = 'move';
  data.setData(ENTRY_DRAG_TYPE, JSON.stringify(items.map((item) => item.path)));
}

export function endEntryDrag(): void {
  dragged = [];
}

/** The entries of the drag in progress (empty when the drag did not start in this listing). */
export function draggedEntries(): ResourceItem[] {
  return dragged;
}

/** What a drop would do here: move listing entries, upload desktop files, or nothing. */
export function dropKind(data: DataTransfer): 'entries' | 'files' | null {
  if (data.types.includes(ENTRY_DRAG_TYPE)) return dragged.length > 0 ? 'entries' : null;
  if (data.types.includes('Files')) return 'files';
  return null;
}
