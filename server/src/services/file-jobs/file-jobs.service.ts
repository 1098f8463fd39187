import * as z from 'zod/mini';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FileJob, FileJobAnswer, FileJobState, NewFileJob } from '@cabinet/protocol';
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
import { errors } from '../../errors.ts';
import type { FileJobProgress, FileJobRecord } from '../../store/file-jobs.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { canCreate, canDelete, canRename } from '../permissions.ts';
import type { ResourcesService } from '../resources.service.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { JobRun, Stopped } from './job-run.ts';
import { toFileJob } from './to-file-job.ts';

/** The scheduler job kind that carries "run file job X" (payload RunPayload). */
export const FILE_JOB_RUN = 'files.job';

/** What a FILE_JOB_RUN scheduler job carries; checked as it comes back from the database. */
const RunPayload = z.object({ jobId: z.string() });
type RunPayload = z.infer<typeof RunPayload>;

/** How many of a user's jobs GET /api/jobs lists. */
const RECENT_JOBS = 50;
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

export interface Dependencies {
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
      { jobId: id } satisfies RunPayload,
      { key: runKey(id) },
    );
  }

  /** The scheduler's handler of FILE_JOB_RUN. */
  async run(scheduled: Job, schedulerSignal: AbortSignal): Promise<void> {
    const { jobId } = RunPayload.parse(scheduled.payload);
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
