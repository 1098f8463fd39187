import type { Site, SiteCreateRequest } from '@cabinet/protocol';
import { useState } from 'react';
import {
  useSiteCreateMutation,
  useSiteDeleteMutation,
  useSiteUpdateMutation,
} from '../../../api/sites/site-admin-mutations.ts';
import { siteErrorCode } from '../../../api/sites/site-error-code.ts';
import { useAllSitesQuery } from '../../../api/sites/site-queries.ts';
import { Dialog } from '../../../components/Dialog.tsx';
import { isolateName } from '../../../i18n/isolate-name.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifyFailure, notifySuccess } from '../../../stores/notification-store.ts';
import { SiteForm, type SiteFormError } from './SiteForm.tsx';
import '../sites.css';

type Editing = { kind: 'new' } | { kind: 'edit'; site: Site } | undefined;

/**
 * The Sites card of the global settings (administrators): the declared sites, a form to declare
 * one (from the starter by default) or change one, and deleting one after a confirmation (its
 * files stay).
 */
export function SitesSettingsCard() {
  const { t } = useTranslation();
  const sites = useAllSitesQuery();
  const create = useSiteCreateMutation();
  const update = useSiteUpdateMutation();
  const remove = useSiteDeleteMutation();
  const [editing, setEditing] = useState<Editing>();
  const [error, setError] = useState<SiteFormError | undefined>();
  const [deleting, setDeleting] = useState<Site | undefined>();

  const close = () => {
    setEditing(undefined);
    setError(undefined);
  };
  const refusal = (failure: Error): SiteFormError =>
    siteErrorCode(failure) === 'site_exists'
      ? { field: 'name', message: t('sites.siteExists') }
      : { message: failure.message };

  const submit = ({ name, starter: _starter, ...changes }: SiteCreateRequest) => {
    if (editing?.kind === 'edit') {
      update.mutate(
        { name, changes },
        {
          onSuccess: () => {
            close();
            notifySuccess(t('sites.siteUpdated', { name: isolateName(name) }));
          },
          onError: (failure) => setError(refusal(failure)),
        },
      );
      return;
    }
    create.mutate(
      { name, starter: _starter, ...changes },
      {
        onSuccess: () => {
          close();
          notifySuccess(t('sites.siteCreated', { name: isolateName(name) }));
        },
        onError: (failure) => setError(refusal(failure)),
      },
    );
  };

  const confirmDelete = (site: Site) =>
    remove.mutate(site.name, {
      onSuccess: () => {
        setDeleting(undefined);
        notifySuccess(t('sites.siteDeleted', { name: isolateName(site.name) }));
      },
      onError: (failure) => notifyFailure(failure),
    });

  return (
    <section className="card" id="sites" aria-labelledby="global-sites-title">
      <h2 id="global-sites-title" className="card__title">
        {t('sites.adminTitle')}
      </h2>
      <p className="settings__help">{t('sites.adminHelp')}</p>
      {sites.isError ? (
        <p className="field__error" role="alert">
          {t('sites.loadFailed')}
        </p>
      ) : !sites.data ? (
        <p role="status">{t('sites.loading')}</p>
      ) : sites.data.length === 0 ? (
        <p className="settings__help">{t('sites.noSites')}</p>
      ) : (
        <ul className="admin-sites" aria-labelledby="global-sites-title">
          {sites.data.map((site) => (
            <li key={site.name} className="admin-sites__item">
              <div className="admin-sites__text">
                <strong dir="auto">{site.title || site.name}</strong>
                <span className="settings__help">
                  <span dir="ltr">{site.name}</span> · <span dir="ltr">{site.folder}</span> ·{' '}
                  {t(`sites.generator.${site.generator}`)}
                  {site.serve && ` · ${t('sites.served')}`}
                </span>
              </div>
              <div className="admin-sites__actions">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={t('sites.editSite', { name: isolateName(site.name) })}
                  onClick={() => {
                    setError(undefined);
                    setEditing({ kind: 'edit', site });
                  }}
                >
                  {t('sites.edit')}
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small post__danger"
                  aria-label={t('sites.deleteSite', { name: isolateName(site.name) })}
                  onClick={() => setDeleting(site)}
                >
                  {t('sites.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <SiteForm
          key={editing.kind === 'edit' ? editing.site.name : 'new'}
          site={editing.kind === 'edit' ? editing.site : undefined}
          isSaving={create.isPending || update.isPending}
          error={error}
          onSubmit={submit}
          onCancel={close}
        />
      ) : (
        <div className="card__actions">
          <button type="button" className="button" onClick={() => setEditing({ kind: 'new' })}>
            {t('sites.addSite')}
          </button>
        </div>
      )}
      {deleting && (
        <Dialog
          title={t('sites.deleteTitle', { name: isolateName(deleting.name) })}
          onClose={() => setDeleting(undefined)}
          actions={
            <>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setDeleting(undefined)}
              >
                {t('buttons.cancel')}
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={remove.isPending}
                onClick={() => confirmDelete(deleting)}
              >
                {t('sites.delete')}
              </button>
            </>
          }
        >
          <p>{t('sites.deleteMessage')}</p>
        </Dialog>
      )}
    </section>
  );
}
