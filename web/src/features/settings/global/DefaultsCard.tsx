import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { toDefaults, toFormValue } from '../users/user-form-value.ts';
import { UserFields } from '../users/UserFields.tsx';
import { CardFooter } from './CardFooter.tsx';
import type { SettingsCardProps } from './GlobalSettingsPage.tsx';

/** Card 2: the defaults for new users, in the user form without name, password, lock and rules. */
export function DefaultsCard({ settings, onSave, isSaving, error }: SettingsCardProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => toFormValue(settings.defaults));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The quota field already says what is wrong with its text.
    if (isSaving || value.quota === null) return;
    onSave({ ...settings, defaults: toDefaults(value, settings.defaults) });
  };

  return (
    <form className="card" onSubmit={handleSubmit} aria-labelledby="global-defaults-title">
      <h2 id="global-defaults-title" className="card__title">
        {t('settings.userDefaults')}
      </h2>
      <p className="settings__help">{t('settings.userDefaultsHelp')}</p>
      <UserFields
        mode="defaults"
        value={value}
        onChange={(patch) => setValue((old) => ({ ...old, ...patch }))}
        errors={error?.field ? { [error.field]: error.message } : {}}
      />
      <CardFooter error={error} isSaving={isSaving} />
    </form>
  );
}
