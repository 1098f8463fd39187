import { useId, useLayoutEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { trapTabKey } from './focus-trap.ts';
import './dialog.css';

export interface DialogProps {
  title: string;
  children: ReactNode;
  /** Buttons, safe action first (docs/design.md). */
  actions: ReactNode;
  onClose: () => void;
  /** Makes the dialog a form: Enter in a field submits. */
  onSubmit?: () => void;
}

/**
 * A modal dialog on the native <dialog> element: the rest of the page is inert while it is open,
 * Tab and Shift+Tab cycle inside it, Esc closes it and focus returns to where it was
 * (docs/design.md, Components).
 */
export function Dialog({ title, children, actions, onClose, onSubmit }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useLayoutEffect(() => {
    const dialog = ref.current;
    // The dialog is removed rather than closed, so focus is handed back by hand.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={trapTabKey}
    >
      <form method="dialog" className="dialog__card" onSubmit={handleSubmit}>
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        <div className="dialog__actions">{actions}</div>
      </form>
    </dialog>
  );
}
