import { useCallback, useEffect, useId, useState } from 'react';
import type { FileJob } from '@cabinet/protocol';
import { CollapseToggle } from '../../components/CollapseToggle.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { hasEnded, useFileJobsStore } from '../../stores/file-jobs-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { reloadJobs } from './job-feed.ts';
import { JobRow } from './JobRow.tsx';
import '../../components/corner-panel.css';
import './jobs.css';

/** Rows worth seeing first: a question, what runs, what waits, then what ended (newest first). */
const ORDER = { waiting: 0, running: 1, queued: 2, failed: 3, cancelled: 4, done: 5 } as const;

/** How long a job that ended well stays in the panel (a failed or cancelled one stays). */
export const DONE_SHOWN_MS = 5000;

/** How many ended jobs "Recent" lists (the server keeps the user's 50 newest). */
const RECENT_ROWS = 10;

/**
 * Re-renders when the first shown successful job is due to leave the panel: the clock is not
 * state, so a timer says when to look again.
 */
function useDoneExpiry(doneSeenAt: number[]): number {
  const [now, setNow] = useState(() => Date.now());
  const due = doneSeenAt.filter((at) => at + DONE_SHOWN_MS > now);
  const next = due.length > 0 ? Math.min(...due) + DONE_SHOWN_MS : undefined;
  useEffect(() => {
    if (next === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - Date.now()));
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}

/**
 * Tells the layout how much room the panel takes at the foot of the screen (from its top edge
 * down, plus a gap), as `--jobs-panel-space` on the root: the sidebar (wide screens) or the page
 * (phones) keeps that much room below its content (layout.css). Gone with the panel.
 */
function useRoomBelow(): (panel: HTMLElement | null) => (() => void) | undefined {
  return useCallback((panel: HTMLElement | null) => {
    if (!panel) return undefined;
    const root = document.documentElement;
    const measure = () => {
      const room = Math.max(0, window.innerHeight - panel.getBoundingClientRect().top) + 8;
      root.style.setProperty('--jobs-panel-space', `${Math.ceil(room)}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(panel);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty('--jobs-panel-space');
    };
  }, []);
}

/**
 * The Jobs panel (docs/jobs.md): the user's background copies, moves and deletes, running and
 * just ended, the same on every open tab and after a reload (GET /api/jobs, then the event
 * stream's `job` events). A job that ended well leaves after a moment; a failed or cancelled one
 * stays until closed; "Recent" lists the last ended ones. Collapsed it is one line (title, counts,
 * toggle), the choice remembered. Wide screens dock it over the foot of the sidebar column, phones
 * at the foot of the screen, and the page keeps clear of it (components/corner-panel.css).
 */
export function JobsPanel() {
  const { t } = useTranslation();
  const jobs = useFileJobsStore((s) => s.jobs);
  const dismissed = useFileJobsStore((s) => s.dismissed);
  const doneSeenAt = useFileJobsStore((s) => s.doneSeenAt);
  const isCollapsed = useFileJobsStore((s) => s.isCollapsed);
  const setCollapsed = useFileJobsStore((s) => s.setCollapsed);
  const showsRecent = useFileJobsStore((s) => s.showsRecent);
  const setShowsRecent = useFileJobsStore((s) => s.setShowsRecent);
  const userId = useCurrentUser()?.id;
  const titleId = useId();
  const listId = useId();
  // Another user signing in on this page starts from their own list, not what the last one saw;
  // a page that has just signed out asks for none.
  useEffect(() => {
    if (userId === undefined) return;
    useFileJobsStore.getState().own(userId);
    void reloadJobs();
  }, [userId]);
  const now = useDoneExpiry(Object.values(doneSeenAt));
  const roomBelow = useRoomBelow();

  const all = Object.values(jobs);
  if (all.length === 0) return null;
  const isCurrent = (job: FileJob) =>
    !dismissed.includes(job.id) &&
    (job.state !== 'done' || (doneSeenAt[job.id] ?? 0) + DONE_SHOWN_MS > now);
  const current = all
    .filter(isCurrent)
    .sort((a, b) => ORDER[a.state] - ORDER[b.state] || b.createdAt - a.createdAt);
  const recent = all
    .filter(hasEnded)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, RECENT_ROWS);
  const running = current.filter((job) => !hasEnded(job)).length;
  const waiting = current.filter((job) => job.state === 'waiting').length;
  const failed = current.filter((job) => job.state === 'failed').length;
  const ended = current.filter(hasEnded).map((job) => job.id);
  const summary = [t('jobs.running', { n: running })];
  if (waiting > 0) summary.push(t('jobs.waiting'));
  if (failed > 0) summary.push(t('jobs.failedCount', { n: failed }));
  const rows = showsRecent ? recent : current;

  return (
    <section
      className="corner-panel corner-panel--start jobs-panel"
      aria-labelledby={titleId}
      ref={roomBelow}
      data-collapsed={isCollapsed}
    >
      <div className="corner-panel__head jobs-panel__head">
        <h2 id={titleId} className="corner-panel__title">
          {t('jobs.title')}
        </h2>
        <p className="corner-panel__summary jobs-panel__summary">{summary.join(' · ')}</p>
        <CollapseToggle
          label={t('jobs.details')}
          controls={listId}
          collapsed={isCollapsed}
          onToggle={() => setCollapsed(!isCollapsed)}
        />
      </div>
      <div id={listId} className="jobs-panel__body" hidden={isCollapsed}>
        <div className="jobs-panel__actions">
          <button
            type="button"
            className="button button--small button--secondary"
            aria-pressed={showsRecent}
            onClick={() => {
              // The server's list has what ended elsewhere or was closed here.
              if (!showsRecent) void reloadJobs();
              setShowsRecent(!showsRecent);
            }}
          >
            {t('jobs.recent')}
          </button>
          {!showsRecent && ended.length > 0 && (
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => useFileJobsStore.getState().dismiss(ended)}
            >
              {t('jobs.clearEnded')}
            </button>
          )}
        </div>
        {rows.length > 0 ? (
          <ul
            className="corner-panel__list"
            aria-label={showsRecent ? t('jobs.recent') : undefined}
          >
            {rows.map((job) => (
              <JobRow key={job.id} job={job} canClose={!showsRecent} />
            ))}
          </ul>
        ) : (
          showsRecent && <p className="jobs-panel__empty">{t('jobs.noRecent')}</p>
        )}
      </div>
    </section>
  );
}
