import type { ResourceItem } from '@cabinet/protocol';
import {
  useEffect,
  useMemo,
  useRef,
  type DragEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { useNavigate } from 'react-router';
import { useSelectionStore } from '../../stores/selection-store.ts';
import { clearDropHighlight } from './drop-target.ts';
import { endEntryDrag, startEntryDrag } from './drag-items.ts';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import {
  clickSelection,
  extendSelection,
  indexesOf,
  selectAll,
  toggleSelection,
  type SelectionState,
} from './selection-model.ts';
import { UI_LIMITS } from '../../config/ui-limits.ts';

/** How long a finger rests on an entry before it counts as a long press (selects it). */
const LONG_PRESS_MS = 500;
/** How far a finger may wander during a long press before it counts as scrolling instead. */
const LONG_PRESS_SLOP_PX = 10;

/** What entries of the listing do when clicked, tapped, pressed, dragged or opened. */
export interface EntryActions {
  click(index: number, event: MouseEvent): void;
  doubleClick(index: number): void;
  pointerDown(index: number, event: PointerEvent): void;
  pointerMove(event: PointerEvent): void;
  pointerEnd(): void;
  contextMenu(event: MouseEvent): void;
  dragStart(index: number, event: DragEvent): void;
  dragEnd(): void;
  /** Focus arrived on an entry (Tab, a click, a script): it becomes the listing's tab stop. */
  focus(index: number): void;
  open(index: number): void;
  toggle(index: number): void;
  /** Shift+Arrow from the focused entry `from` to `to`: selects the range from the anchor. */
  extend(from: number, to: number): void;
  selectAll(): void;
}

interface EntryActionsOptions {
  entries: ResourceItem[];
  /** The user's singleClick preference: a click opens instead of selecting. */
  singleClick: boolean;
  /** Dragging entries onto folders moves them, which needs the rename permission. */
  canDrag: boolean;
  /** Moves the keyboard focus marker to an entry (a click also focuses it). */
  setFocusIndex(index: number): void;
}

/**
 * The selection and opening rules wired to pointer and keyboard events:
 * click selects, ctrl/cmd-click toggles, shift-click selects a range, double-click (or a double
 * tap within 300 ms) opens, single-click mode opens on click, and a long press on touch selects
 * and turns multiple-selection mode on (touch has no ctrl key).
 *
 * The returned object never changes identity, so the rows that receive it do not re-render.
 */
export function useEntryActions(options: EntryActionsOptions): EntryActions {
  const navigate = useNavigate();
  const latest = useRef(options);
  const anchor = useRef<number | null>(null);
  const pointerType = useRef<string>('mouse');
  const touchedAt = useRef(0);
  const lastTap = useRef<{ index: number; time: number } | null>(null);
  const press = useRef<{ timer: number; x: number; y: number } | null>(null);
  const pressFired = useRef(false);

  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => () => window.clearTimeout(press.current?.timer), []);

  return useMemo<EntryActions>(() => {
    const current = (): SelectionState => {
      const { entries } = latest.current;
      const selected = useSelectionStore.getState().items.map((item) => item.path);
      return {
        selected: indexesOf(
          entries.map((entry) => entry.path),
          selected,
        ),
        anchor: anchor.current,
      };
    };
    const apply = (next: SelectionState) => {
      const { entries } = latest.current;
      anchor.current = next.anchor;
      useSelectionStore.getState().setItems(next.selected.map((index) => entries[index]!));
    };
    const open = (index: number) => {
      const entry = latest.current.entries[index];
      if (entry) void navigate(routeFromScopePath(entry.path, entry.isDir));
    };
    const cancelPress = () => {
      if (press.current) window.clearTimeout(press.current.timer);
      press.current = null;
    };
    const toggle = (index: number) => apply(toggleSelection(current(), index));

    return {
      click(index, event) {
        // The entry is a real link (new tab, copy address); the listing decides what a click does.
        event.preventDefault();
        latest.current.setFocusIndex(index);
        // Enter on the focused link arrives as a click without a pointer: it opens.
        if (event.detail === 0) return open(index);
        if (pressFired.current) {
          pressFired.current = false;
          return;
        }
        const { multiple } = useSelectionStore.getState();
        const modifiers = {
          toggle: event.ctrlKey || event.metaKey,
          range: event.shiftKey,
          multiple,
        };
        const isPlain = !modifiers.toggle && !modifiers.range && !multiple;
        if (isPlain && latest.current.singleClick) return open(index);
        if (pointerType.current === 'touch') {
          // When the finger touched down (the touch's own time), not when this click got to run:
          // a busy page must not turn a quick double tap into two single ones.
          const now = touchedAt.current;
          const previous = lastTap.current;
          lastTap.current = { index, time: now };
          if (previous?.index === index && now - previous.time <= UI_LIMITS.doubleTapMs) {
            lastTap.current = null;
            return open(index);
          }
        } else if (event.detail > 1) {
          // The second click of a double-click: leave the selection as the first one set it.
          return;
        }
        apply(clickSelection(current(), index, modifiers));
      },
      doubleClick(index) {
        // Touch double taps are timed in click() within UI_LIMITS' double-tap window.
        if (pointerType.current !== 'touch' && !latest.current.singleClick) open(index);
      },
      pointerDown(index, event) {
        pointerType.current = event.pointerType;
        pressFired.current = false;
        cancelPress();
        if (event.pointerType !== 'touch') return;
        touchedAt.current = event.timeStamp;
        press.current = {
          x: event.clientX,
          y: event.clientY,
          timer: window.setTimeout(() => {
            press.current = null;
            pressFired.current = true;
            useSelectionStore.getState().setMultiple(true);
            toggle(index);
          }, LONG_PRESS_MS),
        };
      },
      pointerMove(event) {
        const start = press.current;
        if (!start) return;
        const distance = Math.hypot(event.clientX - start.x, event.clientY - start.y);
        if (distance > LONG_PRESS_SLOP_PX) cancelPress();
      },
      pointerEnd: cancelPress,
      contextMenu(event) {
        // A long press must not also open the browser's link menu.
        if (pointerType.current === 'touch') event.preventDefault();
      },
      dragStart(index, event) {
        cancelPress();
        const { entries, canDrag } = latest.current;
        // Without rename the browser's own link drag is left alone; drops ignore it.
        if (!canDrag) return;
        const selected = current().selected;
        const items = selected.includes(index)
          ? selected.map((i) => entries[i]!)
          : [entries[index]!];
        startEntryDrag(event.dataTransfer, items);
      },
      dragEnd() {
        endEntryDrag();
        clearDropHighlight();
      },
      focus(index) {
        latest.current.setFocusIndex(index);
      },
      open,
      toggle,
      extend(from, to) {
        apply(extendSelection(current(), from, to));
      },
      selectAll() {
        apply(selectAll(latest.current.entries.length));
      },
    };
  }, [navigate]);
}
