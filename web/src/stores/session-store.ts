import { create } from 'zustand';
import type { TokenUser } from '@cabinet/protocol';
import { decodeToken } from '../auth/token-claims.ts';
import { clearStoredToken, storeToken } from '../auth/token-storage.ts';

interface SessionState {
  /** The raw token sent as X-Auth; null when logged out. */
  token: string | null;
  /** The `user` claim of the token: who is logged in and what they may do. */
  user: TokenUser | null;
  /** Expiry of the token in Unix seconds (0 when logged out). */
  expiresAt: number;
  /**
   * Adopts a token from login or renewal. Returns false (and changes nothing) when the token
   * cannot be decoded.
   */
  setToken(token: string): boolean;
  /** Forgets the token and the user. */
  clear(): void;
}

/** The logged-in session. Decoded from the token only: no extra request is needed to know the user. */
export const useSessionStore = create<SessionState>()((set) => ({
  token: null,
  user: null,
  expiresAt: 0,
  setToken(token) {
    const claims = decodeToken(token);
    if (!claims) return false;
    storeToken(token);
    set({ token, user: claims.user, expiresAt: claims.exp });
    return true;
  },
  clear() {
    clearStoredToken();
    set({ token: null, user: null, expiresAt: 0 });
  },
}));

/** The logged-in user, or null. */
export const useCurrentUser = () => useSessionStore((s) => s.user);
