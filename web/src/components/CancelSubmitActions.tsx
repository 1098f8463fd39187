interface CancelSubmitActionsProps {
  cancelLabel: string;
  submitLabel: string;
  onCancel: () => void;
  /** The form is being sent: the submit button waits. */
  busy?: boolean;
}

/** A form dialog's usual buttons: Cancel, which closes it, and the button that submits its form. */
export function CancelSubmitActions({
  cancelLabel,
  submitLabel,
  onCancel,
  busy = false,
}: CancelSubmitActionsProps) {
  return (
    <>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="submit" className="button" disabled={busy}>
        {submitLabel}
      </button>
    </>
  );
}
