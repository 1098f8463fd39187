import type { FileJobProgress, FileJobRecord } from '../../store/file-jobs.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { AppError } from '../../errors.ts';
import type { CopyControl } from '../../fs/copy-run.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import { freeName } from '../resources/free-name.ts';
import type { FileJobsService } from './file-jobs.service.ts';
import { toFileJob } from './to-file-job.ts';
import { JobPublisher } from './job-publisher.ts';

// The job runner (docs/jobs.md): one run of one job, item by item through the resources service,
// saving where it is as it goes so a later run resumes there. FileJobsService is its API.

/** Progress is written to the database at most this often (and at every item's end). */
const SAVE_EVERY_MS = 100;

/** Why a run stopped early, as the abort reason of its signal. */
export class Stopped extends Error {
  constructor(readonly why: 'cancelled' | 'lost') {
    super(`the job was ${why}`);
  }
}

/** An error as the job records it: the status the same refusal has over HTTP, and why. */
function describeFailure(error: unknown): { status: number; message: string } {
  if (error instanceof AppError) {
    const words: Record<number, string> = {
      403: 'permission denied',
      404: 'not found',
      409: 'the destination exists and is of another kind',
    };
    return { status: error.status, message: error.reason ?? words[error.status] ?? error.code };
  }
  return { status: 500, message: error instanceof Error ? error.message : String(error) };
}

/** One run of one job: its items from where the last run stopped. */
export class JobRun {
  private readonly publisher: JobPublisher;
  private lastSavedAt = 0;
  /** The save that catches up a throttled one when no further progress comes to write it. */
  private cancelTrailingSave: (() => void) | undefined;
  /** Bytes done when this run started: the rate counts this run's work only. */
  private readonly bytesAtStart: number;

  constructor(
    private readonly service: FileJobsService,
    private readonly job: FileJobRecord,
    private readonly user: UserRecord,
    private readonly runner: string,
    private readonly controller: AbortController,
    private readonly startedAt: number,
  ) {
    const { deps, now, timers } = service.parts;
    this.publisher = new JobPublisher(deps.events, job.userId, now, timers);
    this.bytesAtStart = job.bytesDone;
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async execute(): Promise<void> {
    const { deps } = this.service.parts;
    const fs = await deps.resources.view(this.user);
    if (this.job.filesTotal === null || this.job.bytesTotal === null) await this.measure(fs);
    while (this.job.itemIndex < this.job.items.length) {
      this.signal.throwIfAborted();
      const outcome = await this.runItem(fs);
      if (outcome === 'waiting') return;
    }
    const now = this.service.parts.now();
    this.job.state = 'done';
    this.job.current = null;
    this.job.finishedAt = now;
    await this.save(true, { state: 'done', current: null, finishedAt: now });
  }

  /** Totals before the first item: every source's files and bytes. */
  private async measure(fs: ScopedFs): Promise<void> {
    let files = 0;
    let bytes = 0;
    for (const item of this.job.items) {
      const size = await fs.treeSize(item.from, this.signal).catch((error: unknown) => {
        if (this.signal.aborted) throw error;
        return { files: 0, bytes: 0 }; // Refused or gone: the item's own run says why.
      });
      files += size.files;
      bytes += size.bytes;
    }
    this.job.filesTotal = files;
    this.job.bytesTotal = bytes;
    await this.save(true, { filesTotal: files, bytesTotal: bytes });
  }

  private async runItem(fs: ScopedFs): Promise<'done' | 'waiting'> {
    const job = this.job;
    const item = job.items[job.itemIndex]!;
    job.current = item.from;
    const resumed = job.itemTarget !== null;
    let target = job.itemTarget ?? item.from;
    let override = job.itemOverride;
    if (!resumed && job.kind !== 'delete') {
      const destination = await fs.resolve(item.to!);
      const source = await fs.resolve(item.from);
      const caseOnly =
        job.kind === 'move' &&
        fs.caseInsensitive &&
        source.path.toLowerCase() === destination.path.toLowerCase();
      target = destination.path;
      if ((destination.stat || destination.isSymlink) && !caseOnly) {
        const given = item.onConflict ?? job.onConflict;
        const choice = job.answer ?? (given === 'ask' ? null : given);
        if (choice === null) {
          job.state = 'waiting';
          job.question = destination.path;
          await this.save(true, { state: 'waiting', question: destination.path, current: null });
          return 'waiting';
        }
        if (choice === 'skip') {
          const size = await fs.treeSize(item.from, this.signal);
          job.filesTotal = Math.max(0, (job.filesTotal ?? 0) - size.files);
          job.bytesTotal = Math.max(0, (job.bytesTotal ?? 0) - size.bytes);
          job.itemsSkipped += 1;
          // The totals leave the skipped item out, in the database too: a job whose items were
          // all skipped ends "0 of 0", not "0 of 3".
          await this.save(true, { filesTotal: job.filesTotal, bytesTotal: job.bytesTotal });
          await this.finishItem();
          return 'done';
        }
        if (choice === 'replace') override = true;
        else target = await freeName(fs, destination.path);
      }
    }
    if (!resumed) {
      job.itemTarget = target;
      job.itemOverride = override;
      job.answer = null;
      job.fileIndex = 0;
      await this.save(true);
    }
    await this.carryOut(fs, item.from, target, override, resumed);
    await this.finishItem();
    return 'done';
  }

  /** One item through the resources service, with the checks, hooks and quota a request has. */
  private async carryOut(
    fs: ScopedFs,
    from: string,
    target: string,
    override: boolean,
    resumed: boolean,
  ): Promise<void> {
    const { resources } = this.service.parts.deps;
    const job = this.job;
    if (job.kind === 'copy') {
      // A resumed copy merges into what the last run made (its files land whole or not at all).
      const destination = resumed ? await fs.resolve(target) : undefined;
      const merge = override || Boolean(destination?.stat);
      const control: CopyControl = {
        signal: this.signal,
        skipFiles: job.fileIndex,
        // Counted by the unbroken run of landed files, so the counts and the resume point agree.
        onFile: async ({ through, files, bytes }) => {
          job.fileIndex = through;
          job.filesDone += files;
          job.bytesDone += bytes;
          if (files > 0) await this.save(false);
          await this.service.parts.deps.afterFile?.();
        },
      };
      const { replaced } = await this.audited('file.replace', target, { from }, () =>
        resources.transfer(
          this.user,
          from,
          {
            action: 'copy',
            destination: target,
            override: merge,
            rename: false,
          },
          control,
        ),
      );
      // A resumed copy merging into its own partial output replaces nothing of the user's.
      if (override && replaced) this.record('file.replace', replaced, 'ok', { from });
      return;
    }
    const source = await fs.resolve(from);
    const gone = !source.stat && !source.isSymlink;
    if (resumed && gone) return; // The last run finished the item but not its record.
    const size = await fs.treeSize(source, this.signal);
    if (job.kind === 'move') {
      const { replaced } = await this.audited('file.replace', target, { from }, () =>
        resources.transfer(this.user, from, {
          action: 'rename',
          destination: target,
          override,
          rename: false,
        }),
      );
      if (replaced) this.record('file.replace', replaced, 'ok', { from });
    } else {
      const { trashed } = await this.audited('file.delete', source.path, {}, () =>
        resources.remove(this.user, from),
      );
      this.record('file.delete', source.path, 'ok', { trash: trashed });
    }
    job.filesDone += size.files;
    job.bytesDone += size.bytes;
  }

  /**
   * Runs one item's operation; when it fails and `override` said it would replace (or it is a
   * delete), the attempt is recorded with its status, as a request's would be.
   */
  private async audited<T>(
    action: 'file.delete' | 'file.replace',
    target: string,
    details: Record<string, unknown>,
    operation: () => Promise<T>,
  ): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      const replacing = this.job.itemOverride;
      if (!this.signal.aborted && (action === 'file.delete' || replacing)) {
        const failure = describeFailure(error);
        const outcome = failure.status === 403 ? 'refused' : 'failed';
        this.record(action, target, outcome, {
          ...details,
          status: failure.status,
          reason: failure.message,
        });
      }
      throw error;
    }
  }

  /** One audit entry of this job's work: the job's user, the address it was asked from. */
  private record(
    action: 'file.delete' | 'file.replace',
    target: string,
    outcome: 'ok' | 'refused' | 'failed',
    details: Record<string, unknown>,
  ): void {
    this.service.parts.deps.audit?.record({
      action,
      outcome,
      actor: { id: this.user.id, username: this.user.username },
      address: this.job.address,
      target,
      details: { via: 'job', job: this.job.id, ...details },
    });
  }

  private async finishItem(): Promise<void> {
    const job = this.job;
    // The override is set only by a "replace" answer to an existing destination.
    if (job.itemOverride) job.itemsReplaced += 1;
    job.itemIndex += 1;
    job.itemTarget = null;
    job.itemOverride = false;
    job.fileIndex = 0;
    job.answer = null;
    await this.save(true);
  }

  /**
   * Writes the run's progress (every SAVE_EVERY_MS, or now when `force`) and sends it to the
   * owner. The write is conditional on the job still being this run's: a cancel, or another
   * instance that took the job over, stops this run here.
   */
  async save(force: boolean, extra: Partial<FileJobProgress> = {}): Promise<void> {
    const { now, repo, timers } = this.service.parts;
    const at = now();
    const job = this.job;
    const seconds = (at - this.startedAt) / 1000;
    job.rate = seconds > 0 ? Math.round((job.bytesDone - this.bytesAtStart) / seconds) : 0;
    job.updatedAt = at;
    if (!force && at - this.lastSavedAt < SAVE_EVERY_MS) {
      // Not written yet, but sent: the publisher's spacing holds the newest for its turn. A long
      // next file must not leave the stored progress (what a reloaded page reads) behind, so a
      // trailing save writes it once the spacing has passed.
      this.publisher.send(toFileJob(job));
      this.cancelTrailingSave ??= timers.after(SAVE_EVERY_MS - (at - this.lastSavedAt), () => {
        this.cancelTrailingSave = undefined;
        void this.save(true).catch(() => undefined);
      });
      return;
    }
    this.cancelTrailingSave?.();
    this.cancelTrailingSave = undefined;
    this.lastSavedAt = at;
    const change: FileJobProgress = {
      itemIndex: job.itemIndex,
      itemTarget: job.itemTarget,
      itemOverride: job.itemOverride,
      fileIndex: job.fileIndex,
      answer: job.answer,
      filesDone: job.filesDone,
      bytesDone: job.bytesDone,
      itemsSkipped: job.itemsSkipped,
      itemsReplaced: job.itemsReplaced,
      rate: job.rate,
      current: job.current,
      ...extra,
      updatedAt: at,
    };
    if (!(await repo.update(job.id, ['running'], change, this.runner))) {
      const stored = await repo.byId(job.id);
      this.controller.abort(new Stopped(stored?.state === 'cancelled' ? 'cancelled' : 'lost'));
      this.signal.throwIfAborted();
    }
    this.publisher.send(toFileJob(job));
  }

  /** The run is over: no trailing save may write after it. */
  stopSaving(): void {
    this.cancelTrailingSave?.();
    this.cancelTrailingSave = undefined;
  }

  /** After a cancel: what this run finished, which its throttled saves may not have written. */
  async keepCounts(): Promise<void> {
    const { now, repo } = this.service.parts;
    const job = this.job;
    await repo.update(
      job.id,
      ['cancelled'],
      {
        itemIndex: job.itemIndex,
        itemTarget: job.itemTarget,
        itemOverride: job.itemOverride,
        fileIndex: job.fileIndex,
        filesDone: job.filesDone,
        bytesDone: job.bytesDone,
        itemsSkipped: job.itemsSkipped,
        itemsReplaced: job.itemsReplaced,
        updatedAt: now(),
      },
      this.runner,
    );
  }

  /** Records a failure in words, keeping what was done. */
  async fail(error: unknown): Promise<void> {
    const { now, repo, ctx } = this.service.parts;
    const failure = describeFailure(error);
    if (failure.status === 500)
      ctx.log.error({ err: error, job: this.job.id }, 'a file job failed');
    const at = now();
    await repo.update(
      this.job.id,
      ['running'],
      {
        state: 'failed',
        errorStatus: failure.status,
        errorMessage: failure.message,
        finishedAt: at,
        filesDone: this.job.filesDone,
        bytesDone: this.job.bytesDone,
        itemsSkipped: this.job.itemsSkipped,
        itemsReplaced: this.job.itemsReplaced,
        fileIndex: this.job.fileIndex,
        updatedAt: at,
      },
      this.runner,
    );
  }

  /** The run's last event: the job as stored now (done, failed, cancelled, waiting or taken over). */
  async publishLast(): Promise<void> {
    const stored = await this.service.parts.repo.byId(this.job.id).catch(() => undefined);
    if (stored) await this.publisher.last(toFileJob(stored));
  }
}
