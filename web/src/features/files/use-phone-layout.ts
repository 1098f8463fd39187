import { useSyncExternalStore } from 'react';
import { UI_LIMITS } from '../../config/ui-limits.ts';

/** The mobile breakpoint (width at most 736 px), as in the stylesheets. */
const PHONE_QUERY = `(max-width: ${UI_LIMITS.mobileBreakpointPx}px)`;

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the window is at the phone breakpoint (the more-menu and compact rows take over). */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_QUERY).matches);
}
