import { baseURL } from '../config/page-config.ts';
import { useConnectionStore } from '../stores/connection-store.ts';

/** Waits between probes while the server is away: 1, 2, 4, then every 8 seconds. */
const PROBE_DELAYS_MS = [1000, 2000, 4000, 8000];

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;

/** Calls `listener` each time the server is reachable again (listings reload, uploads resume). */
export function onReconnect(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks /health once; a reply of any kind means the server is back. */
export async function probeNow(): Promise<void> {
  const store = useConnectionStore.getState();
  if (store.isReachable || store.isProbing) return;
  clearTimeout(timer);
  store.setProbing(true);
  let isBack = false;
  try {
    await fetch(`${baseURL}/health`, { cache: 'no-store', credentials: 'same-origin' });
    isBack = true;
  } catch {
    // Still away: try again after the next delay.
  }
  store.setProbing(false);
  if (isBack) markReachable();
  else schedule();
}

function schedule(): void {
  const delay = PROBE_DELAYS_MS[Math.min(attempt, PROBE_DELAYS_MS.length - 1)]!;
  attempt += 1;
  timer = setTimeout(() => void probeNow(), delay);
}

/**
 * A call got no reply: show the banner and probe until the server answers, so the app recovers
 * by itself (SPEC.md says nothing of offline; issue 18 asks for it).
 */
export function markUnreachable(): void {
  const store = useConnectionStore.getState();
  if (!store.isReachable) return;
  store.setReachable(false);
  attempt = 0;
  schedule();
}

/** A call got a reply: hide the banner and let listeners catch up with what they missed. */
export function markReachable(): void {
  const store = useConnectionStore.getState();
  if (store.isReachable) return;
  clearTimeout(timer);
  store.setReachable(true);
  for (const listener of listeners) listener();
}

// The browser knows first when the network comes back.
if (typeof window !== 'undefined') window.addEventListener('online', () => void probeNow());
