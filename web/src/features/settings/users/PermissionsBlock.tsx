import type { Perm } from '@cabinet/protocol';
import { pageConfig } from '../../../config/page-config.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { withAdmin } from './user-form-value.ts';

/** The permissions in the order the reference shows them; execute only with the runner enabled. */
const OTHER_PERMS = [
  'create',
  'delete',
  'download',
  'modify',
  'execute',
  'rename',
  'share',
] as const;

interface PermissionsBlockProps {
  perm: Perm;
  onChange: (perm: Perm) => void;
  error?: string;
  errorId: string;
}

/**
 * The permissions block: Administrator turns on and locks every other
 * permission; the execute box shows only when the server runs commands.
 */
export function PermissionsBlock({ perm, onChange, error, errorId }: PermissionsBlockProps) {
  const { t } = useTranslation();
  const shown = OTHER_PERMS.filter((p) => p !== 'execute' || pageConfig.EnableExec);
  return (
    <fieldset
      className="settings__group"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="field__label">{t('settings.permissions')}</legend>
      <p className="settings__help">{t('settings.permissionsHelp')}</p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={perm.admin}
          onChange={(e) => onChange(withAdmin(perm, e.target.checked))}
        />
        {t('settings.perm.admin')}
      </label>
      {shown.map((name) => (
        <label key={name} className="checkbox">
          <input
            type="checkbox"
            checked={perm[name]}
            disabled={perm.admin}
            onChange={(e) => onChange({ ...perm, [name]: e.target.checked })}
          />
          {t(`settings.perm.${name}`)}
        </label>
      ))}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
