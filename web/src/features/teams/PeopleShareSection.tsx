import type { Grantee } from '@cabinet/protocol';
import { useDeferredValue, useId, useState } from 'react';
import { usePathPeopleSharesQuery } from '../../api/teams/people-shares-query.ts';
import { usePeopleQuery } from '../../api/teams/people-query.ts';
import { usePeopleShareSaveMutation } from '../../api/teams/people-share-save-mutation.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { EDIT_ACCESS, VIEW_ONLY } from './access-text.ts';
import { PeopleAccessList } from './PeopleAccessList.tsx';
import { PeoplePicker } from './PeoplePicker.tsx';
import './teams.css';

/** Unix seconds at the end of a day typed as YYYY-MM-DD (local time), 0 for none. */
export function expiryOfDay(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return 0;
  const [y, m, d] = day.split('-').map(Number);
  return Math.floor(new Date(y!, m! - 1, d!, 23, 59, 59).getTime() / 1000);
}

/**
 * The share dialog's "People" section: who has access to the item (change, remove), and a form
 * that shares it with users and groups found by typing their name, to view or edit, until an
 * optional day.
 */
export function PeopleShareSection({ path }: { path: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const shares = usePathPeopleSharesQuery(path);
  const save = usePeopleShareSaveMutation();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const matches = usePeopleQuery(deferred);
  const [chosen, setChosen] = useState<Grantee[]>([]);
  const [level, setLevel] = useState<'view' | 'edit'>('view');
  const [until, setUntil] = useState('');
  const today = new Date().toISOString().slice(0, 10);

  const handleShare = () => {
    if (chosen.length === 0 || save.isPending) return;
    save.mutate(
      {
        share: {
          path,
          grantees: chosen.map(({ kind, id }) => ({ kind, id })),
          access: level === 'edit' ? EDIT_ACCESS : VIEW_ONLY,
          expire: expiryOfDay(until),
        },
      },
      {
        onSuccess: () => {
          setChosen([]);
          setUntil('');
          notifySuccess(t('teams.sharedWithPeople'));
        },
      },
    );
  };

  return (
    <section className="people-share" aria-labelledby={headingId}>
      <h3 id={headingId} className="field__label">
        {t('teams.people')}
      </h3>
      {shares.isPending ? (
        <p className="share-links__status">{t('share.loading')}</p>
      ) : (
        <PeopleAccessList shares={shares.data ?? []} />
      )}
      <PeoplePicker
        label={t('teams.shareWith')}
        chosen={chosen}
        onChange={setChosen}
        query={query}
        onQuery={setQuery}
        matches={matches.data ?? []}
        isSearching={matches.isFetching}
      />
      <div className="people-share__row">
        <label className="field">
          <span className="field__label">{t('teams.access')}</span>
          <select
            className="input"
            value={level}
            onChange={(event) => setLevel(event.target.value === 'edit' ? 'edit' : 'view')}
          >
            <option value="view">{t('teams.canView')}</option>
            <option value="edit">{t('teams.canEdit')}</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">{t('teams.until')}</span>
          <input
            className="input"
            type="date"
            min={today}
            value={until}
            onChange={(event) => setUntil(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button"
          disabled={chosen.length === 0 || save.isPending}
          onClick={handleShare}
        >
          {t('teams.shareButton')}
        </button>
      </div>
    </section>
  );
}
