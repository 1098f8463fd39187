import type { PlacedError } from '../form-errors.ts';

/** A card's refusal that belongs to no particular field, announced when it appears. */
export function CardError({ error }: { error?: PlacedError }) {
  if (!error || error.field) return null;
  return (
    <p className="field__error" role="alert">
      {error.message}
    </p>
  );
}
