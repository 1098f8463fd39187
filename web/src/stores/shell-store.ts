import { create } from 'zustand';

interface ShellState {
  /** Whether the shell panel is shown. */
  isOpen: boolean;
  setOpen(open: boolean): void;
  toggle(): void;
}

/** Shell panel visibility. */
export const useShellStore = create<ShellState>()((set) => ({
  isOpen: false,
  setOpen(open) {
    set({ isOpen: open });
  },
  toggle() {
    set((s) => ({ isOpen: !s.isOpen }));
  },
}));
