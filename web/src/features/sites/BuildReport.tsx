import type { SiteBuild } from '@cabinet/protocol';
import { useTranslation } from '../../i18n/use-translation.ts';

/** The changed output files of one kind, or nothing when there are none. */
function ChangedFiles({ label, files }: { label: string; files: string[] }) {
  if (files.length === 0) return null;
  return (
    <div className="build-report__changes">
      <h4 className="build-report__kind">
        {label} ({files.length})
      </h4>
      <ul className="build-report__files">
        {files.map((file) => (
          <li key={file} dir="auto">
            {file}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What a generator run did: whether it succeeded, the output files it added, updated and
 * removed, and its log (folded, open when the run failed).
 */
export function BuildReport({ build }: { build: SiteBuild }) {
  const { t } = useTranslation();
  const { added, updated, removed } = build.changed;
  const nothing = added.length + updated.length + removed.length === 0;
  return (
    <div className="build-report">
      <p className={build.ok ? 'build-report__ok' : 'build-report__failed'} role="status">
        {build.ok ? t('sites.buildOk', { ms: build.durationMs }) : t('sites.buildFailed')}
      </p>
      {nothing ? (
        <p className="settings__help">{t('sites.buildNothing')}</p>
      ) : (
        <>
          <ChangedFiles label={t('sites.buildAdded')} files={added} />
          <ChangedFiles label={t('sites.buildUpdated')} files={updated} />
          <ChangedFiles label={t('sites.buildRemoved')} files={removed} />
        </>
      )}
      <details className="build-report__log" open={!build.ok}>
        <summary>{t('sites.buildLog')}</summary>
        <pre tabIndex={0}>{build.log || '—'}</pre>
      </details>
    </div>
  );
}
