import { useId } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';

/**
 * The "Apply to all" box of a name-clash question (the copy/move dialog asked up front and the
 * Jobs panel asked during a job): one answer for every clash of the job.
 */
export function ApplyToAll({
  checked,
  onChange,
  className,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  className: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <label className={className} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {t('jobs.applyToAll')}
    </label>
  );
}
