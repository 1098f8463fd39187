import { useEffect, type RefObject } from 'react';

/**
 * Brings a refusal shown on a form into view: the first error message is scrolled to the middle
 * of the screen and the control it describes gets the focus, so the person reads it and can fix
 * it at once (a long user form otherwise leaves it below the fold). `error` changes with each
 * refusal; nothing moves while it is undefined.
 */
export function useRevealError(form: RefObject<HTMLFormElement | null>, error: unknown): void {
  useEffect(() => {
    if (!error) return;
    const message = form.current?.querySelector<HTMLElement>('.field__error');
    if (!message) return;
    const control = message.id
      ? form.current?.querySelector<HTMLElement>(`[aria-describedby~="${CSS.escape(message.id)}"]`)
      : null;
    (control ?? message).scrollIntoView({ block: 'center' });
    control?.focus({ preventScroll: true });
  }, [form, error]);
}
