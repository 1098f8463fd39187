import { CircleAlert, CircleCheck, File, Folder, X } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formatFileSize } from '../../format/file-size.ts';
import type { UploadJob } from '../../stores/upload-store.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { cancelUpload } from './upload-queue.ts';
import { formatDuration } from '../../format/duration.ts';
import { jobPercent, secondsLeft } from './upload-progress.ts';

/** The line under a job's name: waiting, bytes with speed and time left, done, or the error. */
function JobStatus({ job }: { job: UploadJob }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  if (job.status === 'failed') return <>{job.error}</>;
  if (job.status === 'done') return <>{t('upload.statusDone')}</>;
  if (job.status === 'queued') return <>{t('upload.statusWaiting')}</>;
  if (job.isDir || job.size === 0) return <>{t('upload.statusCreating')}</>;
  const parts = [
    t('upload.bytesOf', {
      loaded: formatFileSize(job.loaded, locale),
      total: formatFileSize(job.size, locale),
    }),
  ];
  if (job.speed > 0) {
    parts.push(t('upload.speed', { speed: formatFileSize(job.speed, locale) }));
  }
  const left = secondsLeft(job);
  if (left !== null) parts.push(t('upload.timeLeft', { time: formatDuration(left, locale) }));
  return <>{parts.join(' · ')}</>;
}

const ICONS = { done: CircleCheck, failed: CircleAlert } as const;

/** One job of the upload panel: name, progress, figures and its cancel (or dismiss) button. */
export function UploadRow({ job }: { job: UploadJob }) {
  const { t } = useTranslation();
  const Icon =
    job.status === 'done' || job.status === 'failed'
      ? ICONS[job.status]
      : job.isDir
        ? Folder
        : File;
  const isActive = job.status === 'queued' || job.status === 'running';
  const hasBytes = !job.isDir && job.size > 0;
  return (
    <li className="corner-panel__row upload-row" data-status={job.status}>
      <Icon className="upload-row__icon" size={18} aria-hidden="true" />
      <span className="upload-row__name" title={job.label}>
        {job.label}
      </span>
      <button
        type="button"
        className="icon-button icon-button--small upload-row__cancel"
        aria-label={t(isActive ? 'upload.cancelOne' : 'upload.dismissOne', { name: job.label })}
        title={t(isActive ? 'upload.cancel' : 'upload.dismiss')}
        onClick={() => cancelUpload(job.id)}
      >
        <X size={16} aria-hidden="true" />
      </button>
      {hasBytes && isActive && <ProgressBar label={job.label} percent={jobPercent(job)} />}
      <p className="upload-row__status">
        <JobStatus job={job} />
      </p>
    </li>
  );
}
