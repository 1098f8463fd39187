import { TrashSettings } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiJson } from '../../api/client.ts';
import { trashKeys } from '../../api/trash.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';

const MIB = 1024 * 1024;

/** Administrators: trash on or off, days kept, and the per-user cap in MiB (0: none). */
export function TrashSettingsCard({ settings }: { settings: TrashSettings }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [days, setDays] = useState(String(settings.retentionDays));
  const [cap, setCap] = useState(String(Math.round(settings.maxBytesPerUser / MIB)));
  const [busy, setBusy] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await apiJson('/trash/settings', TrashSettings, {
        method: 'PUT',
        json: {
          enabled,
          retentionDays: Number(days),
          maxBytesPerUser: Math.max(0, Math.round(Number(cap) * MIB)),
        },
      });
      notifySuccess(t('trash.settingsSaved'));
      void client.invalidateQueries({ queryKey: trashKeys.settings });
    } catch (error) {
      notifyFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card"
      aria-labelledby="trash-settings-title"
      onSubmit={(event) => void handleSubmit(event)}
    >
      <h2 id="trash-settings-title" className="card__title">
        {t('trash.settingsTitle')}
      </h2>
      <label className="checkbox">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t('trash.enabled')}
      </label>
      <label className="field">
        <span className="field__label">{t('trash.retentionDays')}</span>
        <input
          className="input"
          type="number"
          min={1}
          max={36500}
          required
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{t('trash.maxMiB')}</span>
        <input
          className="input"
          type="number"
          min={0}
          required
          value={cap}
          onChange={(e) => setCap(e.target.value)}
        />
      </label>
      <div className="card__actions">
        <button type="submit" className="button" disabled={busy}>
          {t('buttons.update')}
        </button>
      </div>
    </form>
  );
}
