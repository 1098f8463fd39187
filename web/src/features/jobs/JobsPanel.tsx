import { useEffect, useId } from 'react';
import { CollapseToggle } from '../../components/CollapseToggle.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { hasEnded, useFileJobsStore } from '../../stores/file-jobs-store.ts';
import { reloadJobs } from './job-feed.ts';
import { JobRow } from './JobRow.tsx';
import '../../components/corner-panel.css';
import './jobs.css';

/** Rows worth seeing first: a question, what runs, what waits, then what ended (newest first). */
const ORDER = { waiting: 0, running: 1, queued: 2, failed: 3, cancelled: 4, done: 5 } as const;

/**
 * The Jobs panel (docs/jobs.md): the user's background copies, moves and deletes, running and
 * recently ended, the same on every open tab and after a reload (GET /api/jobs, then the event
 * stream's `job` events). Hidden while there is nothing to show.
 */
export function JobsPanel() {
  const { t } = useTranslation();
  const jobs = useFileJobsStore((s) => s.jobs);
  const dismissed = useFileJobsStore((s) => s.dismissed);
  const isCollapsed = useFileJobsStore((s) => s.isCollapsed);
  const setCollapsed = useFileJobsStore((s) => s.setCollapsed);
  const titleId = useId();
  const listId = useId();
  useEffect(() => void reloadJobs(), []);

  const shown = Object.values(jobs)
    .filter((job) => !dismissed.includes(job.id))
    .sort((a, b) => ORDER[a.state] - ORDER[b.state] || b.createdAt - a.createdAt);
  if (shown.length === 0) return null;
  const running = shown.filter((job) => !hasEnded(job)).length;
  const ended = shown.filter(hasEnded).map((job) => job.id);

  return (
    <section className="corner-panel corner-panel--start jobs-panel" aria-labelledby={titleId}>
      <div className="corner-panel__head">
        <h2 id={titleId} className="corner-panel__title">
          {t('jobs.title')}
        </h2>
        <p className="corner-panel__summary">{t('jobs.running', { n: running })}</p>
        <CollapseToggle
          label={t('jobs.details')}
          controls={listId}
          collapsed={isCollapsed}
          onToggle={() => setCollapsed(!isCollapsed)}
        />
        {ended.length > 0 && (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => useFileJobsStore.getState().dismiss(ended)}
          >
            {t('jobs.clearEnded')}
          </button>
        )}
      </div>
      <ul id={listId} className="corner-panel__list" hidden={isCollapsed}>
        {shown.map((job) => (
          <JobRow key={job.id} job={job} />
        ))}
      </ul>
    </section>
  );
}
