import {
  AUDIT_CSV_COLUMNS,
  AUDIT_PAGE,
  AuditSettings,
  DEFAULT_AUDIT_SETTINGS,
  type AuditAction,
  type AuditEntry,
  type AuditOutcome,
  type AuditPage,
  type AuditQuery,
} from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { FastifyBaseLogger } from 'fastify';
import { realTimers, systemClock, type Clock, type Timers } from '../../coordination/index.ts';
import { errors } from '../../errors.ts';
import type { AuditRecord } from '../../store/audit.repo.ts';
import { selectionOf } from './audit-filters.ts';
import { csvRow } from './csv.ts';
import { targetNameOf } from './target-names.ts';

/** Who acted: a signed-in user, or (id 0) the name tried on a failed login, or nobody. */
export interface AuditActor {
  id: number;
  username: string;
}

/** One action to record; the time is taken when it is recorded. */
export interface AuditEvent {
  action: AuditAction;
  outcome: AuditOutcome;
  actor?: AuditActor | null;
  /** The client address after trusted proxies (`request.ip`); '' for the server's own work. */
  address?: string;
  target?: string;
  /** The target's human name as it is now (a user's name for `user:2`); see nameOf. */
  targetName?: string;
  /** Never a password or secret value: names of what changed, reasons, counts. */
  details?: Record<string, unknown>;
}

export interface AuditLogOptions {
  /** Off records nothing (the benchmark's baseline); default on. */
  enabled?: boolean;
  /** The clock of entries and of the retention cut-off (tests drive it). */
  now?: Clock;
  /** The wait before a write (default real timers). */
  timers?: Timers;
  /** How long an entry may wait in memory before it is written (default 250 ms). */
  flushAfterMs?: number;
  /** Entries that trigger a write at once (default 200). */
  batchSize?: number;
}

const SETTINGS_KEY = 'audit-settings';
const DAY_MS = 24 * 60 * 60 * 1000;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface AuditLogDeps {
  store: Store;
  log: FastifyBaseLogger;
}

/**
 * The audit log (docs/audit.md). Recording is synchronous and cheap: an entry joins an in-memory
 * batch that one multi-row insert writes every 250 ms or every 200 entries, off the request's
 * path (docs/benchmarks.md measured a transaction per request instead). The batch belongs to this
 * instance of the runtime, which flushes it on stop; a listing flushes it first, so an
 * administrator sees what this instance just did.
 */
export class AuditLog {
  private pending: AuditRecord[] = [];
  /** Cancels the pending timed write, if one is due. */
  private cancelTimer: (() => void) | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly enabled: boolean;
  private readonly now: Clock;
  private readonly timers: Timers;
  private readonly flushAfterMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly ctx: AuditLogDeps,
    options: AuditLogOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.now = options.now ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.flushAfterMs = options.flushAfterMs ?? 250;
    this.batchSize = options.batchSize ?? 200;
  }

  /** Queues one entry; never throws and never waits for the database. */
  record(event: AuditEvent): void {
    if (!this.enabled) return;
    this.pending.push({
      at: this.now(),
      userId: event.actor?.id ?? 0,
      username: event.actor?.username ?? '',
      action: event.action,
      target: event.target ?? '',
      targetName: event.targetName ?? '',
      address: event.address ?? '',
      outcome: event.outcome,
      details: event.details ?? {},
    });
    if (this.pending.length >= this.batchSize) void this.flush();
    else this.cancelTimer ??= this.timers.after(this.flushAfterMs, () => void this.flush());
  }

  /** Writes what is queued (after any write in progress); a failed write is logged, not thrown. */
  flush(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.ctx.store.audit.insertMany(batch);
      } catch (error) {
        this.ctx.log.error({ err: error, entries: batch.length }, 'could not write audit entries');
      }
    });
    return this.writing;
  }

  /**
   * The human name of a target such as `user:2` or `trash:<id>` (a path names itself: ''). Routes
   * that remove their target ask before acting; the others are named after the reply.
   */
  nameOf(target: string): Promise<string> {
    return targetNameOf(this.ctx.store, target);
  }

  /** Called by the runtime's stop: nothing queued is lost on a clean shutdown. */
  async stop(): Promise<void> {
    await this.flush();
  }

  /** GET /api/audit: a page of entries, newest first. */
  async page(query: AuditQuery): Promise<AuditPage> {
    const selection = selectionOf(query, AUDIT_PAGE.default);
    await this.flush();
    const rows = await this.ctx.store.audit.list({ ...selection, limit: selection.limit + 1 });
    const entries = rows.slice(0, selection.limit).map(toEntry);
    return {
      entries,
      next: rows.length > selection.limit ? (entries.at(-1)?.id ?? null) : null,
    };
  }

  /**
   * GET /api/audit.csv: every matching entry, newest first, read a page at a time so an export of
   * a long log never sits in memory. Filters are checked before the first line is written.
   */
  async csv(query: AuditQuery): Promise<AsyncIterable<string>> {
    const selection = selectionOf({ ...query, limit: undefined, before: undefined }, 'all');
    await this.flush();
    const store = this.ctx.store.audit;
    return (async function* rows() {
      yield csvRow(AUDIT_CSV_COLUMNS);
      let before: number | undefined;
      for (;;) {
        const page = await store.list({ ...selection, before });
        for (const row of page) {
          const entry = toEntry(row);
          yield csvRow([
            entry.time,
            String(entry.userID),
            entry.username,
            entry.action,
            entry.target,
            entry.address,
            entry.outcome,
            JSON.stringify(entry.details),
            entry.targetName,
          ]);
        }
        if (page.length < selection.limit) return;
        before = page.at(-1)!.id;
      }
    })();
  }

  /** The retention setting (the default until an administrator saves one). */
  async settings(): Promise<AuditSettings> {
    const saved = await this.ctx.store.kv.get<Partial<AuditSettings>>(SETTINGS_KEY);
    const parsed = AuditSettings.safeParse({ ...DEFAULT_AUDIT_SETTINGS, ...saved });
    return parsed.success ? parsed.data : { ...DEFAULT_AUDIT_SETTINGS };
  }

  async saveSettings(body: unknown): Promise<AuditSettings> {
    const parsed = AuditSettings.safeParse(body);
    if (!parsed.success) throw errors.badRequest('retentionDays must be a whole number of days');
    await this.ctx.store.kv.set(SETTINGS_KEY, parsed.data);
    return parsed.data;
  }

  /** The `audit.purge` job: removes entries past the retention period; 0 days keeps them all. */
  async purge(): Promise<number> {
    const { retentionDays } = await this.settings();
    if (retentionDays === 0) return 0;
    return this.ctx.store.audit.purgeBefore(this.now() - retentionDays * DAY_MS);
  }
}

function toEntry(row: AuditRecord & { id: number }): AuditEntry {
  return {
    id: row.id,
    time: new Date(row.at).toISOString(),
    userID: row.userId,
    username: row.username,
    action: row.action as AuditAction,
    target: row.target,
    targetName: row.targetName,
    address: row.address,
    outcome: row.outcome as AuditOutcome,
    details: row.details,
  };
}
