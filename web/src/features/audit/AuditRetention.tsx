import { useState, type FormEvent } from 'react';
import { useAuditSettingsQuery, useSaveAuditSettings } from '../../api/audit/audit-api.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';

/** The retention setting: days entries are kept, 0 for ever (the audit purge job of the scheduler applies it). */
export function AuditRetention() {
  const { t } = useTranslation();
  const settings = useAuditSettingsQuery();
  const save = useSaveAuditSettings();
  // What the administrator typed; until then the saved value.
  const [draft, setDraft] = useState<string | null>(null);
  const days = draft ?? (settings.data ? String(settings.data.retentionDays) : '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { retentionDays: Number(days) },
      {
        onSuccess: () => {
          setDraft(null);
          notifySuccess(t('audit.retentionSaved'));
        },
        onError: (error) => notifyFailure(error),
      },
    );
  };

  return (
    <form className="audit__retention" onSubmit={submit}>
      <label className="field">
        <span className="field__label">{t('audit.retention')}</span>
        <input
          className="input"
          type="number"
          min={0}
          max={36500}
          step={1}
          required
          value={days}
          disabled={!settings.data}
          aria-describedby="audit-retention-hint"
          onChange={(event) => setDraft(event.target.value)}
        />
      </label>
      <p id="audit-retention-hint" className="settings__help">
        {t('audit.retentionHint')}
      </p>
      <button type="submit" className="button" disabled={!settings.data || save.isPending}>
        {t('audit.save')}
      </button>
    </form>
  );
}
