import type { ResourceItem } from '@cabinet/protocol';
import { create } from 'zustand';

interface SelectionState {
  /** Selected entries of the folder on screen, in listing order. */
  items: ResourceItem[];
  /** Multiple-selection mode: a plain click adds to the selection instead of replacing it. */
  multiple: boolean;
  /** Replaces the selection. */
  setItems(items: ResourceItem[]): void;
  setMultiple(multiple: boolean): void;
  /** Empties the selection and leaves multiple mode (route changes and Esc do this). */
  clear(): void;
}

/** The listing's selection. */
export const useSelectionStore = create<SelectionState>()((set) => ({
  items: [],
  multiple: false,
  setItems(items) {
    set({ items });
  },
  setMultiple(multiple) {
    set({ multiple });
  },
  clear() {
    set({ items: [], multiple: false });
  },
}));
