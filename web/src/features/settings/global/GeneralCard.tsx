import { useState, type FormEvent } from 'react';
import { pageConfig } from '../../../config/page-config.ts';
import { PRODUCT_URL } from '../../../config/product.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { RulesEditor } from '../rules/RulesEditor.tsx';
import { TextField } from '../TextField.tsx';
import { splitWords } from '../users/user-form-value.ts';
import { CardFooter } from './CardFooter.tsx';
import type { SettingsCardProps } from './GlobalSettingsPage.tsx';

/** Where the branding folder, custom.css and img/logo.svg are explained. */
const BRANDING_DOCS_URL = `${PRODUCT_URL}/blob/main/docs/settings.md`;

/**
 * Card 1 of the global settings: signup, home folders, global rules, the shell (with the command
 * runner only) and branding.
 */
export function GeneralCard({ settings, onSave, isSaving, error }: SettingsCardProps) {
  const { t } = useTranslation();
  const [signup, setSignup] = useState(settings.signup);
  const [createUserDir, setCreateUserDir] = useState(settings.createUserDir);
  const [rules, setRules] = useState(settings.rules);
  const [shell, setShell] = useState(settings.shell.join(' '));
  const [branding, setBranding] = useState(settings.branding);
  const brand = (patch: Partial<typeof branding>) => setBranding((old) => ({ ...old, ...patch }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    onSave({ ...settings, signup, createUserDir, rules, shell: splitWords(shell), branding });
  };

  return (
    <form className="card" onSubmit={handleSubmit} aria-labelledby="global-general-title">
      <h2 id="global-general-title" className="card__title">
        {t('settings.globalSettings')}
      </h2>
      <label className="checkbox">
        <input type="checkbox" checked={signup} onChange={(e) => setSignup(e.target.checked)} />
        {t('settings.allowSignup')}
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={createUserDir}
          onChange={(e) => setCreateUserDir(e.target.checked)}
        />
        {t('settings.createUserDir')}
      </label>
      <RulesEditor
        isGlobal
        rules={rules}
        onChange={setRules}
        error={error?.field === 'rules' ? error.message : undefined}
      />
      {pageConfig.EnableExec && (
        <TextField
          label={t('settings.shell')}
          hint={t('settings.shellHelp')}
          value={shell}
          onChange={setShell}
        />
      )}
      <fieldset className="settings__group">
        <legend className="field__label">{t('settings.branding')}</legend>
        <p className="settings__help">
          {t('settings.brandingHelp')}{' '}
          {!pageConfig.DisableExternal && (
            <a href={BRANDING_DOCS_URL} target="_blank" rel="noopener noreferrer">
              {t('settings.documentation')}
            </a>
          )}
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={branding.disableExternal}
            onChange={(e) => brand({ disableExternal: e.target.checked })}
          />
          {t('settings.disableExternalLinks')}
        </label>
        <label className="field">
          <span className="field__label">{t('settings.theme')}</span>
          <select
            className="input"
            value={branding.theme === 'dark' || branding.theme === 'light' ? branding.theme : ''}
            onChange={(e) => brand({ theme: e.target.value })}
          >
            {/* "" on the wire: the browser's (the system's) light or dark preference. */}
            <option value="">{t('firstWeekLayout.themeSystem')}</option>
            <option value="light">{t('settings.themeLight')}</option>
            <option value="dark">{t('settings.themeDark')}</option>
          </select>
        </label>
        <TextField
          label={t('settings.instanceName')}
          value={branding.name}
          onChange={(name) => brand({ name })}
        />
        <TextField
          label={t('settings.brandingDirectoryPath')}
          hint={t('settings.brandingDirectoryHelp')}
          value={branding.files}
          onChange={(files) => brand({ files })}
        />
      </fieldset>
      <CardFooter error={error} isSaving={isSaving} />
    </form>
  );
}
