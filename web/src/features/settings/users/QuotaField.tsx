import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { TextField } from '../TextField.tsx';
import { parseSize, sizeInputText } from '../../quota/index.ts';

interface QuotaFieldProps {
  /** The quota in bytes (0 = none), or null while the typed text is not a size. */
  value: number | null;
  onChange: (bytes: number | null) => void;
}

/**
 * The storage quota of a user (or of new users, in the defaults card): a size with a unit as
 * people write it ("10 GB"); empty means no quota. While the text is not a size the field says so
 * and hands null up, which the form refuses to save.
 */
export function QuotaField({ value, onChange }: QuotaFieldProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => sizeInputText(value ?? 0));
  return (
    <TextField
      label={t('quota.label')}
      hint={t('quota.hint')}
      value={text}
      placeholder={t('quota.none')}
      error={value === null ? t('quota.invalid') : undefined}
      onChange={(next) => {
        setText(next);
        onChange(parseSize(next) ?? null);
      }}
    />
  );
}
