import { useTranslation } from '../../../i18n/use-translation.ts';
import type { PlacedError } from '../form-errors.ts';

/**
 * The end of a global settings card: its refusal that belongs to no particular field (announced
 * when it appears), then its Update button.
 */
export function CardFooter({ error, isSaving }: { error?: PlacedError; isSaving: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {error && !error.field && (
        <p className="field__error" role="alert">
          {error.message}
        </p>
      )}
      <div className="card__actions">
        <button type="submit" className="button" disabled={isSaving}>
          {t('buttons.update')}
        </button>
      </div>
    </>
  );
}
