import { create } from 'zustand';

interface ConnectionState {
  /** False from a call that got no reply until the server answers again. */
  isReachable: boolean;
  /** A probe is under way (the banner's Retry shows it is working). */
  isProbing: boolean;
  setReachable(isReachable: boolean): void;
  setProbing(isProbing: boolean): void;
}

/**
 * Whether the server can be reached, as the last call found. The API client sets it on every
 * reply or network failure; the offline banner shows it and the connection monitor clears it.
 */
export const useConnectionStore = create<ConnectionState>()((set, get) => ({
  isReachable: true,
  isProbing: false,
  setReachable(isReachable) {
    if (get().isReachable !== isReachable) set({ isReachable });
  },
  setProbing(isProbing) {
    set({ isProbing });
  },
}));
