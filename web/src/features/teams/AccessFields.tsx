import type { GrantAccess } from '@cabinet/protocol';
import { useId } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { canWrite, EDIT_ACCESS, EDIT_FLAGS } from './access-text.ts';

interface AccessFieldsProps {
  access: GrantAccess;
  onChange: (access: GrantAccess) => void;
  /** Team folders offer the share flag (grantees may make links inside); shares with people not. */
  withShare: boolean;
}

/**
 * View or edit, as two radio buttons; edit shows the create / rename / modify / delete flags
 * (each on by default). What a grantee may do is always these ∩ their own permissions.
 */
export function AccessFields({ access, onChange, withShare }: AccessFieldsProps) {
  const { t } = useTranslation();
  const name = useId();
  const isEdit = canWrite(access);
  return (
    <fieldset className="settings__group">
      <legend className="field__label">{t('teams.access')}</legend>
      <label className="checkbox">
        <input
          type="radio"
          name={name}
          checked={!isEdit}
          onChange={() =>
            onChange({
              create: false,
              rename: false,
              modify: false,
              delete: false,
              share: access.share,
            })
          }
        />
        {t('teams.canView')}
      </label>
      <label className="checkbox">
        <input
          type="radio"
          name={name}
          checked={isEdit}
          onChange={() => onChange({ ...EDIT_ACCESS, share: access.share })}
        />
        {t('teams.canEdit')}
      </label>
      {isEdit && (
        <div className="access-flags" role="group" aria-label={t('teams.editFlags')}>
          {EDIT_FLAGS.map((flag) => (
            <label key={flag} className="checkbox">
              <input
                type="checkbox"
                checked={access[flag]}
                onChange={(event) => {
                  const next = { ...access, [flag]: event.target.checked };
                  // Unticking the last flag would silently turn the grant into view: keep one.
                  if (canWrite(next)) onChange(next);
                }}
              />
              {t(`settings.perm.${flag}`)}
            </label>
          ))}
        </div>
      )}
      {withShare && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={access.share}
            onChange={(event) => onChange({ ...access, share: event.target.checked })}
          />
          {t('teams.mayShare')}
        </label>
      )}
    </fieldset>
  );
}
