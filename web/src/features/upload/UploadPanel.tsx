import { useEffect, useId, useState } from 'react';
import { CollapseToggle } from '../../components/CollapseToggle.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useUploadStore, type UploadJob, type UploadStatus } from '../../stores/upload-store.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { UploadRow } from './UploadRow.tsx';
import { cancelAllUploads } from './upload-queue.ts';
import { totalPercent } from './upload-progress.ts';
import '../../components/corner-panel.css';
import './upload.css';

/** Rows worth seeing first: what went wrong, what moves, what waits, what is done. */
const ORDER: Record<UploadStatus, number> = { failed: 0, running: 1, queued: 2, done: 3 };

/** A folder of thousands of files would make a list nobody reads (and a slow one). */
const MAX_ROWS = 100;

function visibleRows(jobs: UploadJob[]): UploadJob[] {
  return [...jobs].sort((a, b) => ORDER[a.status] - ORDER[b.status]).slice(0, MAX_ROWS);
}

/**
 * Keeps the panel above the notification stack (both live at the bottom right): the stack's
 * height, measured as toasts come and go.
 */
function useToastStackHeight(): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const stack = document.querySelector<HTMLElement>('.toasts');
    if (!stack) return;
    const observer = new ResizeObserver(() => setHeight(stack.offsetHeight));
    observer.observe(stack);
    return () => observer.disconnect();
  }, []);
  return height;
}

/**
 * The upload panel (docs/design.md): a bottom-right card with the total progress, one row per job
 * with its progress, speed and time left, a cancel button per job and "Cancel all";
 * collapsible to its summary. It also reloads the listings when a run ends.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const jobs = useUploadStore((s) => s.jobs);
  const isCollapsed = useUploadStore((s) => s.isCollapsed);
  const setCollapsed = useUploadStore((s) => s.setCollapsed);
  const toastHeight = useToastStackHeight();
  const listId = useId();
  const titleId = useId();

  if (jobs.length === 0) return null;
  const active = jobs.filter((job) => job.status !== 'failed');
  const done = active.filter((job) => job.status === 'done').length;
  const percent = totalPercent(active);
  const rows = isCollapsed ? [] : visibleRows(jobs);

  return (
    <section
      className="corner-panel corner-panel--end upload-panel"
      aria-labelledby={titleId}
      // The corner strip stands on the same line as the toasts: lifted by their height and a gap.
      style={toastHeight > 0 ? { marginBottom: `calc(${toastHeight}px + var(--space-4))` } : {}}
    >
      <div className="corner-panel__head">
        <h2 id={titleId} className="corner-panel__title">
          {t('upload.title')}
        </h2>
        <p className="corner-panel__summary">
          {active.length > 0
            ? t('upload.summary', { done, total: active.length, percent })
            : t('upload.summaryFailed', { count: jobs.length })}
        </p>
        <CollapseToggle
          label={t('upload.details')}
          controls={listId}
          collapsed={isCollapsed}
          onToggle={() => setCollapsed(!isCollapsed)}
        />
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={cancelAllUploads}
        >
          {t(active.length > 0 ? 'upload.cancelAll' : 'upload.clear')}
        </button>
      </div>
      {active.length > 0 && <ProgressBar label={t('upload.total')} percent={percent} />}
      <ul id={listId} className="corner-panel__list" hidden={isCollapsed}>
        {rows.map((job) => (
          <UploadRow key={job.id} job={job} />
        ))}
        {!isCollapsed && jobs.length > rows.length && (
          <li className="upload-panel__more">
            {t('upload.more', { count: jobs.length - rows.length })}
          </li>
        )}
      </ul>
    </section>
  );
}
