import {
  SITE_GENERATORS,
  SITE_NAME_PATTERN,
  type Site,
  type SiteCreateRequest,
  type SiteGenerator,
} from '@cabinet/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useUsersQuery } from '../../../api/users/users-query.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';

/** A refusal of the form, on the field it concerns or on the form as a whole. */
export interface SiteFormError {
  field?: 'name' | 'folder';
  message: string;
}

/**
 * The fields of a site: name (only when creating: it is the site's address), title, folder,
 * generator, output folder, serving, allowed users, and the starter (only when creating).
 */
export function SiteForm({
  site,
  isSaving,
  error,
  onSubmit,
  onCancel,
}: {
  /** The site being edited; undefined when declaring a new one. */
  site?: Site;
  isSaving: boolean;
  error?: SiteFormError;
  onSubmit: (value: SiteCreateRequest) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const users = useUsersQuery();
  const [name, setName] = useState(site?.name ?? '');
  const [title, setTitle] = useState(site?.title ?? '');
  const [folder, setFolder] = useState(site?.folder ?? '');
  const [generator, setGenerator] = useState<SiteGenerator>(site?.generator ?? 'builtin');
  const [output, setOutput] = useState(site?.output ?? 'public');
  const [serve, setServe] = useState(site?.serve ?? false);
  const [allowed, setAllowed] = useState<number[]>(site?.users ?? []);
  const [starter, setStarter] = useState(true);
  const [problem, setProblem] = useState<SiteFormError | undefined>();
  const shown = problem ?? error;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    if (!site && !SITE_NAME_PATTERN.test(name)) {
      return setProblem({ field: 'name', message: t('sites.nameInvalid') });
    }
    if (!folder.trim()) return setProblem({ field: 'folder', message: t('sites.folderRequired') });
    setProblem(undefined);
    onSubmit({
      name: site?.name ?? name,
      title: title.trim(),
      folder: folder.trim(),
      generator,
      output: output.trim() || 'public',
      serve,
      users: allowed,
      ...(site ? {} : { starter }),
    });
  };

  const fieldError = (field: 'name' | 'folder') =>
    shown?.field === field ? (
      <p id={`${id}-${field}-error`} className="field__error" role="alert">
        {shown.message}
      </p>
    ) : null;
  const invalid = (field: 'name' | 'folder') =>
    shown?.field === field
      ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` }
      : { 'aria-describedby': `${id}-${field}-hint` };

  return (
    <form
      className="site-form"
      onSubmit={handleSubmit}
      aria-label={site ? t('sites.editSite', { name: site.name }) : t('sites.addSite')}
    >
      {!site && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            {t('sites.name')}
          </label>
          <span id={`${id}-name-hint`} className="settings__help">
            {t('sites.nameHint')}
          </span>
          <input
            id={`${id}-name`}
            className="input"
            dir="ltr"
            value={name}
            required
            spellCheck={false}
            autoCapitalize="off"
            onChange={(e) => setName(e.target.value)}
            {...invalid('name')}
          />
          {fieldError('name')}
        </div>
      )}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-title`}>
          {t('sites.siteTitle')}
        </label>
        <input
          id={`${id}-title`}
          className="input"
          dir="auto"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-folder`}>
          {t('sites.folder')}
        </label>
        <span id={`${id}-folder-hint`} className="settings__help">
          {t('sites.folderHint')}
        </span>
        <input
          id={`${id}-folder`}
          className="input"
          dir="ltr"
          value={folder}
          required
          spellCheck={false}
          autoCapitalize="off"
          onChange={(e) => setFolder(e.target.value)}
          {...invalid('folder')}
        />
        {fieldError('folder')}
      </div>
      <div className="site-form__row">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-generator`}>
            {t('sites.generatorLabel')}
          </label>
          <select
            id={`${id}-generator`}
            className="input"
            value={generator}
            onChange={(e) => setGenerator(e.target.value as SiteGenerator)}
          >
            {SITE_GENERATORS.map((g) => (
              <option key={g} value={g}>
                {t(`sites.generator.${g}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-output`}>
            {t('sites.output')}
          </label>
          <input
            id={`${id}-output`}
            className="input"
            dir="ltr"
            value={output}
            spellCheck={false}
            autoCapitalize="off"
            onChange={(e) => setOutput(e.target.value)}
          />
        </div>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={serve} onChange={(e) => setServe(e.target.checked)} />
        <span>{t('sites.serve', { name: site?.name ?? (name || '…') })}</span>
      </label>
      <fieldset className="settings__group" aria-describedby={`${id}-users-hint`}>
        <legend className="field__label">{t('sites.users')}</legend>
        <span id={`${id}-users-hint`} className="settings__help">
          {t('sites.usersHint')}
        </span>
        <div className="site-form__users">
          {users.data?.map((user) => (
            <label key={user.id} className="checkbox">
              <input
                type="checkbox"
                checked={allowed.includes(user.id)}
                onChange={(e) =>
                  setAllowed((old) =>
                    e.target.checked ? [...old, user.id] : old.filter((x) => x !== user.id),
                  )
                }
              />
              <span dir="auto">{user.username}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {!site && (
        <label className="checkbox">
          <input type="checkbox" checked={starter} onChange={(e) => setStarter(e.target.checked)} />
          <span>{t('sites.starter')}</span>
        </label>
      )}
      {shown && !shown.field && (
        <p className="field__error" role="alert">
          {shown.message}
        </p>
      )}
      <div className="card__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('buttons.cancel')}
        </button>
        <button type="submit" className="button" disabled={isSaving}>
          {site ? t('buttons.update') : t('buttons.create')}
        </button>
      </div>
    </form>
  );
}
