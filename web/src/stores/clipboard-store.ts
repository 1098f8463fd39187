import { create } from 'zustand';

/** One entry on the clipboard: its scope path and its name. */
export interface ClipboardItem {
  from: string;
  name: string;
}

interface ClipboardState {
  /** "c" after copy, "x" after cut, null when empty. */
  key: 'c' | 'x' | null;
  items: ClipboardItem[];
  /** The folder the entries were copied or cut from. */
  origin: string;
  set(key: 'c' | 'x', items: ClipboardItem[], origin: string): void;
  clear(): void;
}

/** The app's own clipboard for Ctrl+C, Ctrl+X and Ctrl+V. */
export const useClipboardStore = create<ClipboardState>()((set) => ({
  key: null,
  items: [],
  origin: '',
  set(key, items, origin) {
    set({ key, items, origin });
  },
  clear() {
    set({ key: null, items: [], origin: '' });
  },
}));
