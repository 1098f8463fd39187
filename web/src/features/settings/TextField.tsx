import { useId, type HTMLInputTypeAttribute } from 'react';

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: HTMLInputTypeAttribute;
  /** A refusal shown under the field and announced; the input is marked invalid. */
  error?: string;
  /** A short explanation under the label. */
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  required?: boolean;
  /** Green / red / neutral styling of the password pair. */
  state?: 'match' | 'mismatch';
}

/** A labelled input of the settings forms with its hint and its error on the field. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  state,
  ...input
}: TextFieldProps) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <span id={`${id}-hint`} className="settings__help">
          {hint}
        </span>
      )}
      <input
        id={id}
        className="input"
        type={input.type ?? 'text'}
        value={value}
        placeholder={input.placeholder}
        autoComplete={input.autoComplete}
        required={input.required}
        data-state={error ? 'mismatch' : state}
        aria-invalid={error || state === 'mismatch' ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
