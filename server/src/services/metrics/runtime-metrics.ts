import { FILE_JOB_STATES } from '@cabinet/protocol';
import { createRequire } from 'node:module';
import type { Counter, Histogram, Registry } from 'prom-client';
import { systemClock } from '../../coordination/index.ts';

const load = createRequire(import.meta.url);

/** What the runtime hands the metrics: each read when Prometheus scrapes, never polled. */
export interface MetricSources {
  listingCache: { readonly hits: number; readonly misses: number; readonly bytes: number };
  /** The search index's live entries and when its table was last built from the disk (ms). */
  searchIndex: () => { entries: number; builtAt: number | null } | null;
  /** The mounts the root crosses and whether their watches are trusted (tree/watch/mount-trust.ts). */
  mounts: () => readonly { path: string; type: string; trusted: boolean }[];
  /** Background file jobs by state, counted in the database (all instances'). */
  jobsByState: () => Promise<Record<string, number>>;
  /** When the oldest queued file job was created (ms); null when none is queued. */
  oldestQueuedJob: () => Promise<number | null>;
  /** The scheduler's jobs (all instances'): when each is due, and whether a run holds it. */
  scheduledJobs: () => Promise<
    readonly { runAt: number; claimedBy: string | null; failedAt: number | null }[]
  >;
  /** The PostgreSQL pool's connections; null on SQLite (one connection, no pool). */
  databasePool: () => { total: number; idle: number; waiting: number } | null;
  eventStreamClients: () => number;
  /** Bytes resumable uploads have written to their staging files. */
  uploadBytes: () => number;
  /** Sign-ins refused or failed (wrong password, unknown user, throttled, 2FA). */
  failedSignIns: () => number;
  now?: () => number;
}

/** prom-client's default gauges with a counter's `_total` suffix. */
const NOT_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * One registry per runtime (never prom-client's global one): two servers in one process (the
 * tests, the benchmark) keep their own figures. Request figures are counted as they happen; the
 * rest is read from the runtime's parts at scrape time.
 */
export class RuntimeMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly durations: Histogram<'route'>;

  constructor(sources: MetricSources) {
    // prom-client is loaded with the first metrics, not with the server: /metrics is off by
    // default, and the library holds ~1.6 MiB of heap (issue #37's memory budget).
    const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = load(
      'prom-client',
    ) as typeof import('prom-client');
    this.registry = new Registry();
    const registers = [this.registry];
    const now = sources.now ?? systemClock;
    // Unprefixed (process_resident_memory_bytes, nodejs_eventloop_lag_seconds): the names every
    // Node.js dashboard already reads. The event-loop delay monitor and the GC observer this starts
    // live as long as the process (prom-client offers no stop): one per runtime, and a runtime is
    // built once per process outside the tests.
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which `promtool check metrics` rejects; their per-type
    // siblings (nodejs_active_handles, …) stay and sum to the same figure.
    for (const name of NOT_COUNTERS) this.registry.removeSingleMetric(name);
    this.requests = new Counter({
      name: 'cabinet_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'cabinet_http_request_duration_seconds',
      help: 'Time from request to the end of the reply, by route pattern.',
      labelNames: ['route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    // Counters kept by the runtime's parts: copied in at scrape time (reset, then set).
    const mirrored = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    mirrored(
      'cabinet_listing_cache_hits_total',
      'Listings of watched folders served from the listing cache.',
      () => sources.listingCache.hits,
    );
    mirrored(
      'cabinet_listing_cache_misses_total',
      'Listings of watched folders that had to read the folder.',
      () => sources.listingCache.misses,
    );
    mirrored(
      'cabinet_upload_bytes_total',
      'Bytes written by resumable (tus) uploads.',
      sources.uploadBytes,
    );
    mirrored(
      'cabinet_failed_sign_ins_total',
      'Sign-ins refused or failed: wrong password, unknown user, throttled, two-factor.',
      sources.failedSignIns,
    );
    new Gauge({
      name: 'cabinet_listing_cache_bytes',
      help: 'Bytes the listing cache holds.',
      registers,
      collect() {
        this.set(sources.listingCache.bytes);
      },
    });
    new Gauge({
      name: 'cabinet_search_index_entries',
      help: 'Files and folders in the search index (0 while the first build runs).',
      registers,
      collect() {
        this.set(sources.searchIndex()?.entries ?? 0);
      },
    });
    new Gauge({
      name: 'cabinet_search_index_age_seconds',
      help: 'Seconds since the search index was last built from the disk (absent before).',
      registers,
      collect() {
        this.reset();
        const builtAt = sources.searchIndex()?.builtAt;
        if (builtAt != null) this.set(Math.max(0, (now() - builtAt) / 1000));
      },
    });
    new Gauge({
      name: 'cabinet_watch_trusted',
      help: 'Whether folder watches on each mount the root crosses see every change (1) or not (0).',
      labelNames: ['mount', 'type'],
      registers,
      collect() {
        this.reset();
        for (const m of sources.mounts()) {
          this.set({ mount: m.path, type: m.type }, m.trusted ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'cabinet_file_jobs',
      help: 'Background copy, move and delete jobs by state (all instances).',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await sources.jobsByState();
        this.reset();
        // Every state, so one with no job reads 0 rather than vanishing from the graphs.
        for (const state of new Set<string>([...FILE_JOB_STATES, ...Object.keys(counts)])) {
          this.set({ state }, counts[state] ?? 0);
        }
      },
    });
    new Gauge({
      name: 'cabinet_file_jobs_queue_delay_seconds',
      help: 'Seconds the oldest queued file job has waited to start (0 when none waits).',
      registers,
      async collect() {
        const oldest = await sources.oldestQueuedJob();
        this.set(oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000));
      },
    });
    new Gauge({
      name: 'cabinet_scheduler_lag_seconds',
      help: 'Seconds the most overdue scheduled job has waited past its due time, unclaimed (0 when none).',
      registers,
      async collect() {
        const at = now();
        let lag = 0;
        for (const job of await sources.scheduledJobs()) {
          // A job being run, or given up after its attempts, is not waiting for the scheduler.
          if (job.claimedBy !== null || job.failedAt !== null) continue;
          lag = Math.max(lag, (at - job.runAt) / 1000);
        }
        this.set(lag);
      },
    });
    // PostgreSQL only: SQLite has one connection and no pool, so the series are not exported.
    if (sources.databasePool() !== null) {
      const pool = () => sources.databasePool() ?? { total: 0, idle: 0, waiting: 0 };
      new Gauge({
        name: 'cabinet_db_pool_connections',
        help: 'PostgreSQL pool connections of this instance, in use or idle.',
        labelNames: ['state'],
        registers,
        collect() {
          const { total, idle } = pool();
          this.set({ state: 'in_use' }, total - idle);
          this.set({ state: 'idle' }, idle);
        },
      });
      new Gauge({
        name: 'cabinet_db_pool_waiting',
        help: 'Queries of this instance waiting for a PostgreSQL pool connection.',
        registers,
        collect() {
          this.set(pool().waiting);
        },
      });
    }
    new Gauge({
      name: 'cabinet_event_stream_clients',
      help: 'Open event streams of signed-in pages on this instance.',
      registers,
      collect() {
        this.set(sources.eventStreamClients());
      },
    });
  }

  /** Counts one answered request; `route` is the matched pattern, never the raw URL. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.durations.observe({ route }, seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
