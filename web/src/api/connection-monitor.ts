import { baseURL } from '../config/page-config.ts';

/** Waits between probes while the server is away: 1, 2, 4, then every 8 seconds. */
const PROBE_DELAYS_MS = [1000, 2000, 4000, 8000];

/**
 * Replies that mean the server itself is not there to answer: a proxy in front of it that cannot
 * reach it (502, 504), or Cabinet shutting down (503). Any other reply means it is back.
 */
export function isServerAwayStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/**
 * Where the reachability is kept for the screen to show (the connection store), handed in once at
 * start-up (`linkConnection`) so that web/src/api imports no store.
 */
export interface ConnectionLink {
  isReachable(): boolean;
  isProbing(): boolean;
  setReachable(isReachable: boolean): void;
  setProbing(isProbing: boolean): void;
}

/** Kept here until the app links the store. */
let link: ConnectionLink = localConnection();

function localConnection(): ConnectionLink {
  let reachable = true;
  let probing = false;
  return {
    isReachable: () => reachable,
    isProbing: () => probing,
    setReachable(isReachable) {
      reachable = isReachable;
    },
    setProbing(isProbing) {
      probing = isProbing;
    },
  };
}

/** Called once at start-up, before the first call. */
export function linkConnection(connection: ConnectionLink): void {
  link = connection;
}

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;

/** Calls `listener` each time the server is reachable again (listings reload, uploads resume). */
export function onReconnect(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Asks /health once; a reply from the server itself (not a proxy's 502/504, not a 503 while it
 * shuts down) means the server is back.
 */
export async function probeNow(): Promise<void> {
  if (link.isReachable() || link.isProbing()) return;
  clearTimeout(timer);
  link.setProbing(true);
  let isBack = false;
  try {
    const response = await fetch(`${baseURL}/health`, {
      cache: 'no-store',
      credentials: 'same-origin',
    });
    isBack = !isServerAwayStatus(response.status);
  } catch {
    // Still away: try again after the next delay.
  }
  link.setProbing(false);
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
 * by itself (docs/feedback-and-offline.md).
 */
export function markUnreachable(): void {
  if (!link.isReachable()) return;
  link.setReachable(false);
  attempt = 0;
  schedule();
}

/** A call got a reply: hide the banner and let listeners catch up with what they missed. */
export function markReachable(): void {
  if (link.isReachable()) return;
  clearTimeout(timer);
  link.setReachable(true);
  for (const listener of listeners) listener();
}

// The browser knows first when the network comes back.
if (typeof window !== 'undefined') window.addEventListener('online', () => void probeNow());
