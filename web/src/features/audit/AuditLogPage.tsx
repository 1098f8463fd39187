import { useState, type FormEvent } from 'react';
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  type AuditEntry,
  type AuditFilters,
} from '@cabinet/protocol';
import { Download } from 'lucide-react';
import { downloadAuditCsv, useAuditQuery } from '../../api/audit/audit-api.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import { AuditRetention } from './AuditRetention.tsx';
import { auditActionKey, auditReasonKey, dayEnd, dayStart } from './audit-format.ts';
import './audit.css';

interface FilterForm {
  user: string;
  action: string;
  outcome: string;
  /** `YYYY-MM-DD` of the date inputs, in the administrator's time zone. */
  from: string;
  to: string;
}

const NO_FILTERS: FilterForm = { user: '', action: '', outcome: '', from: '', to: '' };

/** The form's dates as the API's times: from the start of `from` to the end of `to`, locally. */
function filtersOf(form: FilterForm): AuditFilters {
  return {
    user: form.user,
    action: form.action,
    outcome: form.outcome,
    from: form.from ? dayStart(form.from) : '',
    to: form.to ? dayEnd(form.to) : '',
  };
}

/**
 * /settings/audit (administrators): who did what, from where and how it ended, newest first;
 * filters by user, action, time and outcome, "Load more", and the same rows as a CSV file.
 */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<FilterForm>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(filtersOf(NO_FILTERS));
  const [exporting, setExporting] = useState(false);
  const query = useAuditQuery(filters);
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const set = (key: keyof FilterForm) => (value: string) =>
    setForm((current) => ({ ...current, [key]: value }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(filtersOf(form));
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      notifyFailure(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="settings__screen audit" aria-labelledby="audit-title">
      <div className="audit__head">
        <h1 id="audit-title" className="settings__title">
          {t('audit.title')}
        </h1>
        <button
          type="button"
          className="button button--secondary"
          disabled={exporting}
          onClick={() => void exportCsv()}
        >
          <Download size={18} aria-hidden="true" />
          {t('audit.exportCsv')}
        </button>
      </div>
      <form className="audit__filters" onSubmit={apply} aria-label={t('audit.filters')}>
        <label className="field">
          <span className="field__label">{t('audit.user')}</span>
          <input
            className="input"
            value={form.user}
            autoComplete="off"
            onChange={(event) => set('user')(event.target.value)}
          />
        </label>
        <label className="field">
          <span id="audit-action-label" className="field__label">
            {t('audit.action')}
          </span>
          <select
            aria-labelledby="audit-action-label"
            className="input"
            value={form.action}
            onChange={(event) => set('action')(event.target.value)}
          >
            <option value="">{t('audit.anyAction')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`audit.actions.${action}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span id="audit-outcome-label" className="field__label">
            {t('audit.outcome')}
          </span>
          <select
            aria-labelledby="audit-outcome-label"
            className="input"
            value={form.outcome}
            onChange={(event) => set('outcome')(event.target.value)}
          >
            <option value="">{t('audit.anyOutcome')}</option>
            {AUDIT_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {t(`audit.outcomes.${outcome}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">{t('audit.from')}</span>
          <input
            className="input"
            type="date"
            value={form.from}
            onChange={(event) => set('from')(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{t('audit.to')}</span>
          <input
            className="input"
            type="date"
            value={form.to}
            onChange={(event) => set('to')(event.target.value)}
          />
        </label>
        <div className="audit__filter-actions">
          <button type="submit" className="button">
            {t('audit.apply')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setForm(NO_FILTERS);
              setFilters(filtersOf(NO_FILTERS));
            }}
          >
            {t('audit.clear')}
          </button>
        </div>
      </form>
      {query.isError ? (
        <p role="alert">{t('audit.loadFailed')}</p>
      ) : !query.data ? (
        <p>{t('audit.loading')}</p>
      ) : entries.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <table className="audit__table" aria-labelledby="audit-title">
          <thead>
            <tr>
              <th scope="col">{t('audit.time')}</th>
              <th scope="col">{t('audit.user')}</th>
              <th scope="col">{t('audit.action')}</th>
              <th scope="col">{t('audit.target')}</th>
              <th scope="col">{t('audit.address')}</th>
              <th scope="col">{t('audit.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} locale={i18n.language} />
            ))}
          </tbody>
        </table>
      )}
      {query.hasNextPage && (
        <button
          type="button"
          className="button button--secondary audit__more"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('audit.loadMore')}
        </button>
      )}
      <AuditRetention />
    </section>
  );
}

function AuditRow({ entry, locale }: { entry: AuditEntry; locale: string }) {
  const { t } = useTranslation();
  const reason = auditReasonKey(entry.details.reason);
  return (
    <tr data-testid="audit-entry">
      <td data-label={t('audit.time')}>
        <time dateTime={entry.time}>{formatDateTime(new Date(entry.time), locale)}</time>
      </td>
      <td data-label={t('audit.user')}>
        {entry.username ? <bdi>{entry.username}</bdi> : <span>{t('audit.nobody')}</span>}
      </td>
      <td data-label={t('audit.action')}>{t(auditActionKey(entry.action, entry.outcome))}</td>
      <td data-label={t('audit.target')}>
        <bdi className="audit__target" title={entry.targetName ? entry.target : undefined}>
          {entry.targetName || entry.target}
        </bdi>
      </td>
      <td data-label={t('audit.address')}>
        <bdi>{entry.address}</bdi>
      </td>
      <td data-label={t('audit.outcome')} className={entry.outcome === 'ok' ? '' : 'audit__not-ok'}>
        <span>
          {t(`audit.outcomes.${entry.outcome}`)}
          {reason && <span className="audit__reason">{t(`audit.reasons.${reason}`)}</span>}
        </span>
      </td>
    </tr>
  );
}
