import { useEffect, useRef, useSyncExternalStore } from 'react';
import {
  NavigationType,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type Navigator,
  type Path,
  type To,
} from 'react-router';
import { baseURL } from '../config/page-config.ts';

/*
 * The app's browser history, handed to React Router's <Router> (app/App.tsx). It is React
 * Router's own browser history (what <BrowserRouter> uses) with one addition: a navigation
 * blocker, the part of the data router the app needs (the editor's unsaved-changes guard), which
 * otherwise brings the whole data router (loaders, actions, fetchers: 16 KB gzipped) along.
 *
 * Blocking works as React Router's useBlocker does: a push or replace is held back; a Back or
 * Forward has already happened in the browser, so it is undone (history.go(-delta)) and, when the
 * user proceeds, done again.
 */

/** Decides whether a navigation from one location to another waits for the user. */
export type BlockerFunction = (args: { currentLocation: Location; nextLocation: Path }) => boolean;

/** What useBlocker returns: the held navigation while `state` is "blocked". */
export interface Blocker {
  state: 'unblocked' | 'blocked';
  proceed(): void;
  reset(): void;
}

const browser = createBrowserHistory({ v5Compat: true });

/** The location the app shows (a Back being undone has not reached it). */
let shown: Location = browser.location;
let blocker: BlockerFunction | null = null;
let held: Blocker | null = null;
/** Pops the blocker caused itself (undoing a Back) or let through (the user proceeded). */
let ownPops = 0;
let passPops = 0;
const heldListeners = new Set<() => void>();

const UNBLOCKED: Blocker = { state: 'unblocked', proceed() {}, reset() {} };

function setHeld(next: Blocker | null): void {
  held = next;
  for (const listener of heldListeners) listener();
}

function blocks(nextLocation: Path): boolean {
  return blocker !== null && blocker({ currentLocation: shown, nextLocation });
}

/** Holds back a navigation (in place of any held before); `go` performs it on proceed(). */
function hold(go: () => void): void {
  const entry: Blocker = {
    state: 'blocked',
    proceed() {
      if (held !== entry) return;
      setHeld(null);
      go();
    },
    reset() {
      if (held === entry) setHeld(null);
    },
  };
  setHeld(entry);
}

function navigation(kind: 'push' | 'replace') {
  return (to: To, state?: unknown) => {
    if (blocks(browser.encodeLocation(to))) hold(() => browser[kind](to, state));
    else browser[kind](to, state);
  };
}

/** The navigator React Router's links and navigate() go through. */
export const appNavigator: Navigator = {
  createHref: (to) => browser.createHref(to),
  encodeLocation: (to) => browser.encodeLocation(to),
  go: (delta) => browser.go(delta),
  push: navigation('push'),
  replace: navigation('replace'),
};

/** The current action and location, for <Router>. */
export function historyState(): { action: NavigationType; location: Location } {
  return { action: browser.action, location: shown };
}

/** Calls `listener` after every navigation that was not held back. One listener at a time. */
export function listenToHistory(
  listener: (state: { action: NavigationType; location: Location }) => void,
): () => void {
  return browser.listen(({ action, location, delta }) => {
    if (action === NavigationType.Pop) {
      if (ownPops > 0) {
        ownPops -= 1;
        return;
      }
      if (passPops > 0) passPops -= 1;
      else if (delta !== null && delta !== 0 && blocks(location)) {
        ownPops += 1;
        browser.go(-delta);
        hold(() => {
          passPops += 1;
          browser.go(delta);
        });
        return;
      }
    }
    shown = location;
    listener({ action, location });
  });
}

/**
 * The path on screen including the base URL, for code outside React (operations decide from it
 * which folder is shown).
 */
export function shownPathname(): string {
  return shown.pathname;
}

/** Opens an app route ("/files/docs/") from outside React; the blocker applies. */
export function navigateTo(route: string): void {
  appNavigator.push(`${baseURL}${route}`);
}

/**
 * React Router's useBlocker for this history: while `shouldBlock` answers true, leaving is held
 * back and the returned blocker is "blocked" until proceed() or reset(). One blocker at a time.
 */
export function useBlocker(shouldBlock: BlockerFunction): Blocker {
  const latest = useRef(shouldBlock);
  useEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(() => {
    const own: BlockerFunction = (args) => latest.current(args);
    blocker = own;
    return () => {
      if (blocker === own) blocker = null;
      held?.reset();
    };
  }, []);
  return (
    useSyncExternalStore(
      (onChange) => {
        heldListeners.add(onChange);
        return () => heldListeners.delete(onChange);
      },
      () => held,
    ) ?? UNBLOCKED
  );
}
