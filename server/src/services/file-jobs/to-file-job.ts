import type { FileJob } from '@cabinet/protocol';
import type { FileJobRecord } from '../../store/file-jobs.repo.ts';

/** The first item, for a job row's title (its conflict answer is the job's business). */
function firstItem(record: FileJobRecord): FileJob['first'] {
  const first = record.items[0];
  return first ? { from: first.from, ...(first.to ? { to: first.to } : {}) } : { from: '/' };
}

/** A stored job as the API and the event stream send it. */
export function toFileJob(record: FileJobRecord): FileJob {
  return {
    id: record.id,
    kind: record.kind,
    state: record.state,
    onConflict: record.onConflict,
    itemCount: record.itemCount,
    first: firstItem(record),
    filesTotal: Math.max(record.filesTotal ?? 0, record.filesDone),
    filesDone: record.filesDone,
    skipped: record.itemsSkipped,
    replaced: record.itemsReplaced,
    bytesTotal: Math.max(record.bytesTotal ?? 0, record.bytesDone),
    bytesDone: record.bytesDone,
    rate: record.rate,
    current: record.current,
    question: record.question === null ? null : { path: record.question },
    error:
      record.errorStatus === null
        ? null
        : { status: record.errorStatus, message: record.errorMessage ?? '' },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    finishedAt: record.finishedAt,
  };
}
