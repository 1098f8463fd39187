import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { EntryActions } from './use-entry-actions.ts';
import { focusTarget } from './selection-model.ts';
import { logicalArrowKey } from '../../i18n/visual-keys.ts';

interface ListingKeyboardOptions {
  containerRef: RefObject<HTMLElement | null>;
  /** All entries of the folder. */
  count: number;
  /** Entries shown so far (the virtual rows cover these). */
  shownCount: number;
  columns: number;
  focusIndex: number;
  /** Moves the roving focus marker (and makes sure that entry is among the shown ones). */
  setFocusIndex(index: number): void;
  /** Scrolls the entry into the rendered window. */
  scrollToEntry(index: number): void;
  actions: EntryActions;
}

/**
 * Arrow keys, Home and End move focus between entries (one tab stop for the whole listing); with
 * Shift they also select the range from the anchor to the new focus; Space toggles the focused entry's selection; Enter opens it (the entry is a link). Focus is placed once
 * the virtual window has rendered the entry.
 */
export function useListingKeyboard(options: ListingKeyboardOptions) {
  const {
    containerRef,
    count,
    shownCount,
    columns,
    focusIndex,
    setFocusIndex,
    scrollToEntry,
    actions,
  } = options;
  const pendingFocus = useRef<number | null>(null);

  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    const link = containerRef.current?.querySelector<HTMLElement>(`[data-entry-index="${index}"]`);
    if (link) {
      pendingFocus.current = null;
      link.focus({ preventScroll: true });
    } else if (index < shownCount) {
      // Not rendered yet (far away, or just added to the shown entries): bring it into range.
      scrollToEntry(index);
    }
  });

  return function handleKeyDown(event: KeyboardEvent) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.target instanceof HTMLElement) || !event.target.dataset.entryIndex) return;
    if (event.key === ' ') {
      event.preventDefault();
      actions.toggle(focusIndex);
      return;
    }
    // In right-to-left the mosaic runs from the right: the arrows follow what is on screen.
    const target = focusTarget(logicalArrowKey(event.key), focusIndex, count, columns);
    if (target === null) return;
    event.preventDefault();
    // Shift extends the selection from the anchor to where focus moves (Shift+Arrow, Shift+Home/End).
    if (event.shiftKey) actions.extend(focusIndex, target);
    pendingFocus.current = target;
    setFocusIndex(target);
    if (target < shownCount) scrollToEntry(target);
  };
}
