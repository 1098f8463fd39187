import { create } from 'zustand';

interface LayoutState {
  /** Whether the sidebar drawer is open (only matters at 736 px and below). */
  isSidebarOpen: boolean;
  setSidebarOpen(open: boolean): void;
  toggleSidebar(): void;
}

/** Client state of the page chrome. */
export const useLayoutStore = create<LayoutState>()((set) => ({
  isSidebarOpen: false,
  setSidebarOpen(open) {
    set({ isSidebarOpen: open });
  },
  toggleSidebar() {
    set((s) => ({ isSidebarOpen: !s.isSidebarOpen }));
  },
}));
