import type { KeyboardEvent } from 'react';

/** What Tab can land on; disabled, hidden and tabindex="-1" elements are filtered out below. */
const TABBABLE =
  'a[href], button, input, select, textarea, summary, iframe, [contenteditable="true"], [tabindex]';

function tabbables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(':disabled') &&
      !element.closest('[inert]') &&
      // Not rendered (display: none, a closed <details>): Tab skips it too.
      element.getClientRects().length > 0 &&
      // Of a radio group only the checked button is a tab stop (any, while none is checked).
      !(
        element instanceof HTMLInputElement &&
        element.type === 'radio' &&
        !element.checked &&
        element.form?.querySelector(
          `input[type="radio"][name="${CSS.escape(element.name)}"]:checked`,
        )
      ),
  );
}

/**
 * Keeps Tab inside a modal: from the last tabbable element it wraps to the first, Shift+Tab from
 * the first to the last. A native modal <dialog> already makes the page behind it inert, but
 * Chromium still lets Tab leave the last element for the browser's own UI (the document), so one
 * step of every cycle landed "nowhere" on the page body.
 */
export function trapTabKey(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  // Already handled, e.g. by a dialog opened from this one (React events bubble through portals).
  if (event.defaultPrevented) return;
  const active = document.activeElement;
  // Focus in a dialog opened from this one (a portal): that dialog keeps its own cycle.
  if (!(active instanceof Node) || !event.currentTarget.contains(active)) return;
  const elements = tabbables(event.currentTarget);
  const first = elements[0];
  const last = elements[elements.length - 1];
  if (!first || !last) {
    // Nothing to move to: focus stays where it is rather than escaping the dialog.
    event.preventDefault();
    return;
  }
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
