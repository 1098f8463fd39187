import { linkConnection } from '../api/connection-monitor.ts';
import { linkSession } from '../api/session-link.ts';
import { useConnectionStore } from '../stores/connection-store.ts';
import { useSessionStore } from '../stores/session-store.ts';

/**
 * Hands the API client the session and connection stores it reads and updates (token, renewal,
 * logout on 401, reachability). Called once at start-up, before the first call.
 */
export function linkApiToStores(): void {
  linkSession({
    token: () => useSessionStore.getState().token,
    userId: () => useSessionStore.getState().user?.id ?? null,
    adopt: (token) => useSessionStore.getState().setToken(token),
    end: () => useSessionStore.getState().clear(),
  });
  linkConnection({
    isReachable: () => useConnectionStore.getState().isReachable,
    isProbing: () => useConnectionStore.getState().isProbing,
    setReachable: (isReachable) => useConnectionStore.getState().setReachable(isReachable),
    setProbing: (isProbing) => useConnectionStore.getState().setProbing(isProbing),
  });
}
