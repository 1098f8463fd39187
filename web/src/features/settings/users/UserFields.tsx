import { useId } from 'react';
import { pageConfig } from '../../../config/page-config.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import type { ErrorField } from '../form-errors.ts';
import { QuotaField } from './QuotaField.tsx';
import { LanguageSelect } from '../LanguageSelect.tsx';
import { RulesEditor } from '../rules/RulesEditor.tsx';
import { TextField } from '../TextField.tsx';
import { PermissionsBlock } from './PermissionsBlock.tsx';
import type { UserFormValue } from './user-form-value.ts';

interface UserFieldsProps {
  value: UserFormValue;
  onChange: (patch: Partial<UserFormValue>) => void;
  /** "defaults" is the defaults card of the global settings: no name, password, lock or rules. */
  mode: 'user' | 'defaults';
  isNew?: boolean;
  errors?: Partial<Record<ErrorField, string>>;
}

/** The user form (User edit screen), also used for the defaults card. */
export function UserFields({ value, onChange, mode, isNew = false, errors = {} }: UserFieldsProps) {
  const { t } = useTranslation();
  const id = useId();
  const isUser = mode === 'user';
  return (
    <>
      {isUser && (
        <TextField
          label={t('settings.username')}
          value={value.username}
          onChange={(username) => onChange({ username })}
          error={errors.username}
          autoComplete="off"
          required
        />
      )}
      {isUser && (
        <TextField
          label={t('settings.password')}
          type="password"
          value={value.password}
          onChange={(password) => onChange({ password })}
          error={errors.password}
          autoComplete="new-password"
          placeholder={isNew ? undefined : t('settings.avoidChanges')}
          required={isNew}
        />
      )}
      <TextField
        label={t('settings.scope')}
        value={value.scope}
        onChange={(scope) => onChange({ scope })}
        error={errors.scope}
        hint={t('settings.scopeHelp')}
      />
      <QuotaField value={value.quota} onChange={(quota) => onChange({ quota })} />
      <LanguageSelect value={value.locale} onChange={(locale) => onChange({ locale })} />
      {isUser && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={value.perm.admin ? false : value.lockPassword}
            disabled={value.perm.admin}
            onChange={(e) => onChange({ lockPassword: e.target.checked })}
          />
          {t('settings.lockPassword')}
        </label>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value.singleClick}
          onChange={(e) => onChange({ singleClick: e.target.checked })}
        />
        {t('settings.singleClick')}
      </label>
      <PermissionsBlock
        perm={value.perm}
        onChange={(perm) => onChange({ perm, ...(perm.admin && { lockPassword: false }) })}
        error={errors.perm}
        errorId={`${id}-perm`}
      />
      {pageConfig.EnableExec && (
        <TextField
          label={t('settings.commands')}
          value={value.commands}
          onChange={(commands) => onChange({ commands })}
          hint={t('settings.commandsHelp')}
        />
      )}
      {isUser && (
        <RulesEditor
          rules={value.rules}
          onChange={(rules) => onChange({ rules })}
          error={errors.rules}
        />
      )}
    </>
  );
}
