import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type {
  FileJob,
  FileJobAnswer,
  FileJobChoice,
  FileJobConflict,
  FileJobKind,
  FileJobState,
  NewFileJob,
} from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { FastifyBaseLogger } from 'fastify';
import {
  realTimers,
  systemClock,
  type Clock,
  type EventBus,
  type Job,
  type Scheduler,
  type Timers,
} from '../../coordination/index.ts';
import { AppError, errors } from '../../errors.ts';
import type { CopyControl } from '../../fs/copy-run.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import type { FileJobProgress, FileJobRecord } from '../../store/file-jobs.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { canCreate, canDelete, canRename } from '../permissions.ts';
import type { ResourcesService } from '../resources.service.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { freeName } from '../resources/free-name.ts';
import { JobPublisher } from './job-publisher.ts';

/** The scheduler job kind that carries "run file job X" (payload `{ jobId }`). */
export const FILE_JOB_RUN = 'files.job';

/** How many of a user's jobs GET /api/jobs lists. */
const RECENT_JOBS = 50;
/** Progress is written to the database at most this often (and at every item's end). */
const SAVE_EVERY_MS = 100;
/**
 * How long an ended job (done, failed, cancelled) stays listed before the hourly prune removes it:
 * a week leaves time to read a failure and retry it after a weekend away.
 */
export const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** A queued job this old without a run was lost between its insert and its scheduling. */
const LOST_QUEUED_MS = 60_000;

const ACTIVE: readonly FileJobState[] = ['queued', 'running'];
const CANCELLABLE: readonly FileJobState[] = ['queued', 'running', 'waiting'];
const RETRYABLE: readonly FileJobState[] = ['failed', 'cancelled'];

const runKey = (jobId: string) => `file-job:${jobId}`;

/** Why a run stopped early, as the abort reason of its signal. */
class Stopped extends Error {
  constructor(readonly why: 'cancelled' | 'lost') {
    super(`the job was ${why}`);
  }
}

/** The first item, for a job row's title (its conflict answer is the job's business). */
function firstItem(record: FileJobRecord): FileJob['first'] {
  const first = record.items[0];
  return first ? { from: first.from, ...(first.to ? { to: first.to } : {}) } : { from: '/' };
}

export function toFileJob(record: FileJobRecord): FileJob {
  return {
    id: record.id,
    kind: record.kind as FileJobKind,
    state: record.state as FileJobState,
    onConflict: record.onConflict as FileJobConflict,
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

/** Whether `runner` (host:pid:random) names a process of this host that is gone. */
function isDeadRunnerHere(runner: string, self: string): boolean {
  if (runner === self) return false;
  const [host, pidText] = runner.split(':');
  if (host !== os.hostname()) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A new process can get the old one's pid (containers start at 1): that one is not running it.
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

interface Dependencies {
  resources: ResourcesService;
  /** Where each item a job deletes or replaces is recorded (docs/audit.md). */
  audit?: AuditLog;
  scheduler: Scheduler;
  events: EventBus;
  instanceId: string;
  /**
   * Awaited after each file a copy job lands (several are in flight), before it starts more: where
   * an embedder can hold or pace runs. The server passes none; tests hold a run mid-way with it
   * (RuntimeOptions.afterJobFile) instead of racing it.
   */
  afterFile?: () => Promise<void>;
  /** The waits of throttled progress saves and events (default real timers). */
  timers?: Timers;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface FileJobsDeps {
  store: Pick<Store, 'fileJobs' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
  log: FastifyBaseLogger;
}

/**
 * Background copy, move and delete jobs (docs/jobs.md). A job is a row of `file_jobs`; the durable
 * scheduler carries "run job X" so exactly one instance runs it, after a restart too. Every file
 * operation goes through the resources service (permissions, rules, hooks, quota, trash), one item
 * at a time, recording after each where a later run resumes.
 */
export class FileJobsService {
  /** Runs on this instance, by job id: a cancel stops them at once. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly ctx: FileJobsDeps,
    private readonly deps: Dependencies,
    private readonly now: Clock = systemClock,
  ) {}

  private get repo() {
    return this.ctx.store.fileJobs;
  }

  /**
   * POST /api/jobs: checks what it can before queueing (permission, paths, sources). `address`:
   * the client's, kept with the job for the audit entries of what it deletes or replaces.
   */
  async create(user: UserRecord, body: NewFileJob, address = ''): Promise<string> {
    const allowed =
      body.kind === 'copy'
        ? canCreate(user)
        : body.kind === 'move'
          ? canRename(user)
          : canDelete(user);
    if (!allowed) throw errors.forbidden();
    const fs = await this.deps.resources.view(user);
    for (const item of body.items) {
      const source = await fs.resolve(item.from);
      if (source.path === '/') throw errors.forbidden();
      if (!source.stat && !source.isSymlink) throw errors.notFound();
      if (body.kind !== 'delete') {
        if (item.to === undefined) throw errors.badRequest('a destination is required');
        const destination = await fs.resolve(item.to);
        if (destination.path === '/') throw errors.forbidden();
      }
    }
    const id = randomUUID();
    const items = body.items.map((item) =>
      body.kind === 'delete'
        ? { from: item.from }
        : { from: item.from, to: item.to, ...(item.onConflict && { onConflict: item.onConflict }) },
    );
    await this.repo.insert({
      id,
      userId: user.id,
      kind: body.kind,
      onConflict: body.onConflict ?? 'ask',
      items,
      now: this.now(),
      address,
    });
    await this.runNow(id);
    await this.announce(user.id, id);
    return id;
  }

  async list(user: UserRecord): Promise<FileJob[]> {
    return (await this.repo.recentOf(user.id, RECENT_JOBS)).map(toFileJob);
  }

  async get(user: UserRecord, id: string): Promise<FileJob> {
    return toFileJob(await this.own(user, id));
  }

  /** Stops a job; what it finished stays, the file in flight is dropped. */
  async cancel(user: UserRecord, id: string): Promise<FileJob> {
    await this.own(user, id);
    const now = this.now();
    const changed = await this.repo.update(id, CANCELLABLE, {
      state: 'cancelled',
      question: null,
      finishedAt: now,
      updatedAt: now,
    });
    if (!changed) throw errors.conflict('the job has ended');
    await this.deps.scheduler.cancel(runKey(id));
    const local = this.running.get(id);
    // A run here says the last word itself; a run elsewhere learns it at its next save.
    if (local) local.abort(new Stopped('cancelled'));
    else await this.announce(user.id, id);
    return toFileJob(await this.own(user, id));
  }

  /** Runs a failed or cancelled job again from its last finished item. */
  async retry(user: UserRecord, id: string): Promise<FileJob> {
    await this.own(user, id);
    const changed = await this.repo.update(id, RETRYABLE, {
      state: 'queued',
      errorStatus: null,
      errorMessage: null,
      finishedAt: null,
      updatedAt: this.now(),
    });
    if (!changed) throw errors.conflict('the job has not ended');
    await this.runNow(id);
    await this.announce(user.id, id);
    return toFileJob(await this.own(user, id));
  }

  /** Answers a waiting job's conflict question and lets it go on. */
  async answer(user: UserRecord, id: string, body: FileJobAnswer): Promise<FileJob> {
    await this.own(user, id);
    const change: FileJobProgress = {
      state: 'queued',
      answer: body.choice,
      question: null,
      updatedAt: this.now(),
    };
    if (body.applyToAll) change.onConflict = body.choice;
    if (!(await this.repo.update(id, ['waiting'], change))) {
      throw errors.conflict('the job is not waiting for an answer');
    }
    await this.runNow(id);
    await this.announce(user.id, id);
    return toFileJob(await this.own(user, id));
  }

  /**
   * At start: jobs whose run died with a process of this host are run again now (other hosts'
   * are retaken when their scheduler claim lapses); queued jobs that lost their scheduler row are
   * scheduled again.
   */
  async recover(): Promise<void> {
    const self = this.deps.instanceId;
    for (const job of await this.repo.inStates(ACTIVE)) {
      const orphaned =
        (job.state === 'running' && job.runner !== null && isDeadRunnerHere(job.runner, self)) ||
        (job.state === 'queued' && job.updatedAt < this.now() - LOST_QUEUED_MS);
      if (!orphaned) continue;
      this.ctx.log.info({ job: job.id }, 'resuming an interrupted file job');
      await this.runNow(job.id);
    }
  }

  /**
   * The `files.jobs.prune` job: forgets jobs that ended over FINISHED_JOBS_KEPT_MS before `now`
   * (the runtime's clock, which tests drive).
   */
  pruneFinished(now: number): Promise<number> {
    return this.repo.pruneFinished(now - FINISHED_JOBS_KEPT_MS);
  }

  /** Hands a job to the durable scheduler to run now; the key keeps one pending run per job. */
  private async runNow(id: string): Promise<void> {
    await this.deps.scheduler.schedule(
      FILE_JOB_RUN,
      this.now(),
      { jobId: id },
      { key: runKey(id) },
    );
  }

  /** The scheduler's handler of FILE_JOB_RUN. */
  async run(scheduled: Job, schedulerSignal: AbortSignal): Promise<void> {
    const { jobId } = scheduled.payload as { jobId: string };
    const runner = this.deps.instanceId;
    const started = this.now();
    if (
      !(await this.repo.update(jobId, ACTIVE, {
        state: 'running',
        runner,
        rate: 0,
        updatedAt: started,
      }))
    ) {
      return; // Cancelled, waiting or ended meanwhile.
    }
    const job = (await this.repo.byId(jobId))!;
    const user = await this.ctx.store.users.byId(job.userId);
    if (!user) return;
    const controller = new AbortController();
    const onSchedulerAbort = () => controller.abort(schedulerSignal.reason);
    schedulerSignal.addEventListener('abort', onSchedulerAbort, { once: true });
    this.running.set(jobId, controller);
    const run = new JobRun(this, job, user, runner, controller, started);
    try {
      await run.execute();
    } catch (error) {
      const reason: unknown = controller.signal.reason;
      if (controller.signal.aborted && !(reason instanceof Stopped)) {
        // The scheduler is stopping: save where the job is, let it run again later.
        await run.save(true).catch(() => undefined);
        throw error;
      }
      if (!controller.signal.aborted) await run.fail(error);
      else if (reason instanceof Stopped && reason.why === 'cancelled') await run.keepCounts();
    } finally {
      run.stopSaving();
      schedulerSignal.removeEventListener('abort', onSchedulerAbort);
      this.running.delete(jobId);
      await run.publishLast();
    }
  }

  /** @internal The pieces a run uses. */
  get parts() {
    return {
      ctx: this.ctx,
      deps: this.deps,
      now: this.now,
      timers: this.deps.timers ?? realTimers,
      repo: this.repo,
    };
  }

  private async own(user: UserRecord, id: string): Promise<FileJobRecord> {
    const job = await this.repo.byId(id);
    if (!job || job.userId !== user.id) throw errors.notFound();
    return job;
  }

  /** Sends a job's state as stored to its owner (outside a run). */
  private async announce(userId: number, id: string): Promise<void> {
    const job = await this.repo.byId(id);
    if (job) await this.deps.events.publish(userId, 'job', toFileJob(job));
  }
}

/** One run of one job: its items from where the last run stopped. */
class JobRun {
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
        const choice = (job.answer ?? (given === 'ask' ? null : given)) as FileJobChoice | null;
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

  /** One item through the resources service, as the wire API would do it. */
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
            destination: encodeURIComponent(target),
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
          destination: encodeURIComponent(target),
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
