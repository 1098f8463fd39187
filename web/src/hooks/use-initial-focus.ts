import { useEffect, useRef } from 'react';

/**
 * A ref whose element takes the focus once the dialog is shown (the native dialog focuses its
 * first control on showModal, which runs after children mount, so React's autoFocus is too early).
 */
export function useInitialFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
