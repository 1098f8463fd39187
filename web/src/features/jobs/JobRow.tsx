import { useState } from 'react';
import { CircleAlert, CircleCheck, Copy, FolderInput, Trash2, X } from 'lucide-react';
import type { FileJob, FileJobChoice } from '@cabinet/protocol';
import { answerFileJob, cancelFileJob, retryFileJob } from '../../api/jobs/file-jobs.ts';
import { refusalMessage } from '../../api/refusal-message.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { formatFileSize } from '../../format/file-size.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { ApplyToAll } from '../../components/ApplyToAll.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { hasEnded, useFileJobsStore } from '../../stores/file-jobs-store.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import { formatDuration } from '../../format/duration.ts';
import { baseName, jobPercent, jobSecondsLeft } from './job-figures.ts';

const KIND_ICONS = { copy: Copy, move: FolderInput, delete: Trash2 } as const;

/** Runs a job action; a refusal (the job ended meanwhile) is shown, and the reply kept. */
async function act(action: () => Promise<FileJob>): Promise<void> {
  try {
    useFileJobsStore.getState().put(await action());
  } catch (error) {
    notifyFailure(error);
  }
}

/** The line under a job's title: its state, figures, rate, time left, or the error in words. */
function JobStatus({ job }: { job: FileJob }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  if (job.state === 'failed') {
    // The job keeps the bare reason (not a "507 … (reason)" body): a quota refusal names the
    // usage and the quota, as an upload's does.
    const reason = job.error ? refusalMessage(job.error.status, job.error.message) : '';
    return <>{t('jobs.failed', { reason })}</>;
  }
  if (job.state === 'cancelled') return <>{t('jobs.cancelled')}</>;
  if (job.state === 'queued') return <>{t('jobs.queued')}</>;
  if (job.state === 'waiting') return <>{t('jobs.waiting')}</>;
  const parts = [
    t('jobs.files', { done: job.filesDone, total: job.filesTotal }),
    // Each figure isolated: "2 B" stays in one piece in an Arabic sentence (not "B من 2 B 2").
    t('upload.bytesOf', {
      loaded: isolateName(formatFileSize(job.bytesDone, locale)),
      total: isolateName(formatFileSize(job.bytesTotal, locale)),
    }),
  ];
  if (job.state === 'done') {
    // What the conflict answers did, so "0 of 0 files" after skipping everything reads right.
    if (job.skipped > 0) parts.push(t('jobs.skipped', { n: job.skipped }));
    if (job.replaced > 0) parts.push(t('jobs.replaced', { n: job.replaced }));
    return <>{`${t('jobs.done')} · ${parts.join(' · ')}`}</>;
  }
  if (job.rate > 0) {
    parts.push(t('upload.speed', { speed: isolateName(formatFileSize(job.rate, locale)) }));
  }
  const left = jobSecondsLeft(job);
  if (left !== null) parts.push(t('upload.timeLeft', { time: formatDuration(left, locale) }));
  return <>{parts.join(' · ')}</>;
}

/**
 * Whether running the job again could end otherwise: not after a refusal (over the quota, the
 * disk full, a 4xx such as a missing source or no permission), which needs the user to act first.
 */
function canRetry(job: FileJob): boolean {
  if (job.state === 'cancelled') return true;
  if (job.state !== 'failed') return false;
  const status = job.error?.status ?? 500;
  return status !== 507 && (status < 400 || status >= 500);
}

/**
 * A waiting job's question: replace (red, as it destroys what is there), skip or keep both, for
 * this clash or all of them.
 */
function JobQuestion({ job }: { job: FileJob }) {
  const { t } = useTranslation();
  const [applyToAll, setApplyToAll] = useState(false);
  const answer = (choice: FileJobChoice) =>
    void act(() => answerFileJob(job.id, { choice, applyToAll }));
  return (
    <div className="job-row__question" role="group" aria-label={t('jobs.waiting')}>
      <p>{t('jobs.question', { name: isolateName(job.question?.path ?? '') })}</p>
      <div className="job-row__answers">
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => answer('replace')}
        >
          {t('jobs.replace')}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => answer('skip')}
        >
          {t('jobs.skip')}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => answer('keep-both')}
        >
          {t('jobs.keepBoth')}
        </button>
      </div>
      <ApplyToAll className="job-row__all" checked={applyToAll} onChange={setApplyToAll} />
    </div>
  );
}

/**
 * One job of the Jobs panel: what it does, its progress, figures and its buttons (no Close in the
 * "Recent" list, which lists closed ones too).
 */
export function JobRow({ job, canClose = true }: { job: FileJob; canClose?: boolean }) {
  const { t } = useTranslation();
  const ended = hasEnded(job);
  const Icon =
    job.state === 'done'
      ? CircleCheck
      : job.state === 'failed'
        ? CircleAlert
        : KIND_ICONS[job.kind];
  const name = isolateName(baseName(job.first.from));
  const more = job.itemCount > 1 ? ` +${job.itemCount - 1}` : '';
  const kind = t(`jobs.kind.${job.kind}`);
  const title = `${kind}: ${name}${more}`;
  const destination = job.first.to ? isolateName(job.first.to) : null;
  return (
    <li className="corner-panel__row job-row" data-state={job.state} data-job={job.id}>
      <Icon className="job-row__icon" size={18} aria-hidden="true" />
      <span className="job-row__name" title={title}>
        {title}
      </span>
      {ended ? (
        canClose && (
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={t('jobs.dismissOne', { name: title })}
            title={t('jobs.dismiss')}
            onClick={() => useFileJobsStore.getState().dismiss([job.id])}
          >
            <X size={16} aria-hidden="true" />
          </button>
        )
      ) : (
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={t('jobs.cancelOne', { name: title })}
          onClick={() => void act(() => cancelFileJob(job.id))}
        >
          {t('jobs.cancel')}
        </button>
      )}
      {job.state === 'running' && (
        <ProgressBar label={t('jobs.progressOf', { name: title })} percent={jobPercent(job)} />
      )}
      <p className="job-row__status" aria-live="polite">
        <JobStatus job={job} />
      </p>
      {destination && job.kind !== 'delete' && (
        <p className="job-row__detail">{t('jobs.to', { path: destination })}</p>
      )}
      {job.state === 'running' && job.current && (
        <p className="job-row__detail">{t('jobs.current', { path: isolateName(job.current) })}</p>
      )}
      {job.state === 'waiting' && job.question && <JobQuestion job={job} />}
      {canRetry(job) && (
        <div className="job-row__answers">
          <button
            type="button"
            className="button button--small"
            aria-label={t('jobs.retryOne', { name: title })}
            onClick={() => void act(() => retryFileJob(job.id))}
          >
            {t('jobs.retry')}
          </button>
        </div>
      )}
    </li>
  );
}
