import type { Selectable, Updateable } from 'kysely';
import {
  FILE_JOB_CHOICES,
  FILE_JOB_CONFLICTS,
  FILE_JOB_KINDS,
  FILE_JOB_STATES,
  type FileJobChoice,
  type FileJobConflict,
  type FileJobKind,
  type FileJobState,
} from '@cabinet/protocol';
import type { Db } from './db.ts';
import type { FileJobsTable } from './schema.ts';

/** One item of a job as stored: its source, its destination (not for a delete), its own answer. */
export interface FileJobItem {
  from: string;
  to?: string;
  onConflict?: FileJobConflict;
}

/** One background file job as stored (docs/jobs.md). */
export interface FileJobRecord {
  id: string;
  userId: number;
  kind: FileJobKind;
  state: FileJobState;
  onConflict: FileJobConflict;
  items: FileJobItem[];
  itemCount: number;
  itemIndex: number;
  itemTarget: string | null;
  itemOverride: boolean;
  fileIndex: number;
  answer: FileJobChoice | null;
  question: string | null;
  filesTotal: number | null;
  filesDone: number;
  bytesTotal: number | null;
  bytesDone: number;
  rate: number;
  current: string | null;
  errorStatus: number | null;
  errorMessage: string | null;
  runner: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** The client address the job was asked from ('' when unknown). */
  address: string;
  /** Items a conflict answer skipped, and items that replaced what was at their destination. */
  itemsSkipped: number;
  itemsReplaced: number;
}

/** The fields a run changes as it goes. */
export type FileJobProgress = Partial<
  Pick<
    FileJobRecord,
    | 'state'
    | 'onConflict'
    | 'itemIndex'
    | 'itemTarget'
    | 'itemOverride'
    | 'fileIndex'
    | 'answer'
    | 'question'
    | 'filesTotal'
    | 'filesDone'
    | 'bytesTotal'
    | 'bytesDone'
    | 'rate'
    | 'current'
    | 'errorStatus'
    | 'errorMessage'
    | 'runner'
    | 'finishedAt'
    | 'itemsSkipped'
    | 'itemsReplaced'
  >
> & { updatedAt: number };

const nullableNumber = (value: unknown) => (value === null ? null : Number(value));

/**
 * A stored word checked against the words it may be: the columns are text, the record is typed,
 * and a row this code did not write fails here rather than somewhere in a run.
 */
function oneOf<T extends string>(words: readonly T[], value: string, column: string): T {
  const found = words.find((word) => word === value);
  if (found === undefined) throw new Error(`file_jobs.${column} holds an unknown value`);
  return found;
}

function toRecord(row: Selectable<FileJobsTable>): FileJobRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    kind: oneOf(FILE_JOB_KINDS, row.kind, 'kind'),
    state: oneOf(FILE_JOB_STATES, row.state, 'state'),
    onConflict: oneOf(FILE_JOB_CONFLICTS, row.on_conflict, 'on_conflict'),
    // Written by insert() below from checked values: JSON of FileJobItem[].
    items: JSON.parse(row.items) as FileJobItem[],
    itemCount: Number(row.item_count),
    itemIndex: Number(row.item_index),
    itemTarget: row.item_target,
    itemOverride: Number(row.item_override) === 1,
    fileIndex: Number(row.file_index),
    answer: row.answer === null ? null : oneOf(FILE_JOB_CHOICES, row.answer, 'answer'),
    question: row.question,
    filesTotal: nullableNumber(row.files_total),
    filesDone: Number(row.files_done),
    bytesTotal: nullableNumber(row.bytes_total),
    bytesDone: Number(row.bytes_done),
    rate: Number(row.rate),
    current: row.current,
    errorStatus: nullableNumber(row.error_status),
    errorMessage: row.error_message,
    runner: row.runner,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    finishedAt: nullableNumber(row.finished_at),
    address: row.address,
    itemsSkipped: Number(row.items_skipped),
    itemsReplaced: Number(row.items_replaced),
  };
}

function toColumns(change: FileJobProgress): Updateable<FileJobsTable> {
  const columns: Updateable<FileJobsTable> = { updated_at: change.updatedAt };
  if (change.state !== undefined) columns.state = change.state;
  if (change.onConflict !== undefined) columns.on_conflict = change.onConflict;
  if (change.itemIndex !== undefined) columns.item_index = change.itemIndex;
  if (change.itemTarget !== undefined) columns.item_target = change.itemTarget;
  if (change.itemOverride !== undefined) columns.item_override = change.itemOverride ? 1 : 0;
  if (change.fileIndex !== undefined) columns.file_index = change.fileIndex;
  if (change.answer !== undefined) columns.answer = change.answer;
  if (change.question !== undefined) columns.question = change.question;
  if (change.filesTotal !== undefined) columns.files_total = change.filesTotal;
  if (change.filesDone !== undefined) columns.files_done = change.filesDone;
  if (change.bytesTotal !== undefined) columns.bytes_total = change.bytesTotal;
  if (change.bytesDone !== undefined) columns.bytes_done = change.bytesDone;
  if (change.rate !== undefined) columns.rate = change.rate;
  if (change.current !== undefined) columns.current = change.current;
  if (change.errorStatus !== undefined) columns.error_status = change.errorStatus;
  if (change.errorMessage !== undefined) columns.error_message = change.errorMessage;
  if (change.runner !== undefined) columns.runner = change.runner;
  if (change.finishedAt !== undefined) columns.finished_at = change.finishedAt;
  if (change.itemsSkipped !== undefined) columns.items_skipped = change.itemsSkipped;
  if (change.itemsReplaced !== undefined) columns.items_replaced = change.itemsReplaced;
  return columns;
}

/**
 * The only code that reads and writes file-job rows. Every change of state is one conditional
 * UPDATE whose row count says whether it happened: a cancel and a run's progress never both win.
 */
export class FileJobsRepo {
  constructor(private readonly db: Db) {}

  async insert(job: {
    id: string;
    userId: number;
    kind: FileJobKind;
    onConflict: FileJobConflict;
    items: FileJobItem[];
    now: number;
    address: string;
  }): Promise<void> {
    await this.db
      .insertInto('file_jobs')
      .values({
        id: job.id,
        user_id: job.userId,
        kind: job.kind,
        state: 'queued',
        on_conflict: job.onConflict,
        items: JSON.stringify(job.items),
        item_count: job.items.length,
        address: job.address,
        item_index: 0,
        item_target: null,
        item_override: 0,
        file_index: 0,
        answer: null,
        question: null,
        files_total: null,
        files_done: 0,
        bytes_total: null,
        bytes_done: 0,
        rate: 0,
        current: null,
        error_status: null,
        error_message: null,
        runner: null,
        created_at: job.now,
        updated_at: job.now,
        finished_at: null,
      })
      .execute();
  }

  async byId(id: string): Promise<FileJobRecord | undefined> {
    const row = await this.db
      .selectFrom('file_jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A user's most recent jobs, newest first. */
  async recentOf(userId: number, limit: number): Promise<FileJobRecord[]> {
    const rows = await this.db
      .selectFrom('file_jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  /** How many jobs are in each state (the figures of /metrics). */
  async countByState(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('file_jobs')
      .select(['state', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  }

  /** When the oldest job still queued was created (ms), or null when none waits (the metrics). */
  async oldestQueuedAt(): Promise<number | null> {
    const row = await this.db
      .selectFrom('file_jobs')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('state', '=', 'queued')
      .executeTakeFirst();
    return row?.oldest == null ? null : Number(row.oldest);
  }

  /** Jobs in one of `states` (the start-up check for runs a crash interrupted). */
  async inStates(states: readonly string[]): Promise<FileJobRecord[]> {
    const rows = await this.db
      .selectFrom('file_jobs')
      .selectAll()
      .where('state', 'in', [...states])
      .execute();
    return rows.map(toRecord);
  }

  /**
   * Applies `change` if the job is in one of `from` (and, when given, still run by `runner`);
   * true if it was.
   */
  async update(
    id: string,
    from: readonly string[],
    change: FileJobProgress,
    runner?: string,
  ): Promise<boolean> {
    let query = this.db
      .updateTable('file_jobs')
      .set(toColumns(change))
      .where('id', '=', id)
      .where('state', 'in', [...from]);
    if (runner !== undefined) query = query.where('runner', '=', runner);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Forgets a user's finished jobs that ended before `before`; returns how many. */
  async pruneFinished(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('file_jobs')
      .where('state', 'in', ['done', 'failed', 'cancelled'])
      .where('finished_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
