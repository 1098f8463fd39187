import * as z from 'zod/mini';

/** Background file jobs (Cabinet addition, docs/jobs.md): copy, move or delete many items. */
export const FILE_JOB_KINDS = ['copy', 'move', 'delete'] as const;
export type FileJobKind = (typeof FILE_JOB_KINDS)[number];

export const FILE_JOB_STATES = [
  'queued',
  'running',
  'waiting',
  'done',
  'failed',
  'cancelled',
] as const;
export type FileJobState = (typeof FILE_JOB_STATES)[number];

/** What a job does when an item's destination exists; `ask` pauses the job with a question. */
export const FILE_JOB_CONFLICTS = ['ask', 'replace', 'skip', 'keep-both'] as const;
export type FileJobConflict = (typeof FILE_JOB_CONFLICTS)[number];

/** The answers to a job's conflict question. */
export const FILE_JOB_CHOICES = ['replace', 'skip', 'keep-both'] as const;
export type FileJobChoice = (typeof FILE_JOB_CHOICES)[number];

/** The most items one job takes. */
export const FILE_JOB_MAX_ITEMS = 10_000;

/**
 * A user path of a job: no `..` segment (a job never climbs, even inside its scope) and no NUL.
 * Everything else is checked by the server's scope and rules.
 */
const JobPath = z.string().check(
  z.minLength(1),
  z.maxLength(4096),
  z.refine((value) => !value.includes('\0') && !value.split('/').includes('..'), {
    message: 'a path may not contain ".." segments',
  }),
);

export const FileJobItem = z.object({
  from: JobPath,
  /** The destination path (copy and move; not used by delete). */
  to: z.optional(JobPath),
  /** This item's answer should its destination exist, before the job's `onConflict`. */
  onConflict: z.optional(z.enum(FILE_JOB_CONFLICTS)),
});
export type FileJobItem = z.infer<typeof FileJobItem>;

/** Body of POST /api/jobs. */
export const NewFileJob = z.object({
  kind: z.enum(FILE_JOB_KINDS),
  items: z.array(FileJobItem).check(z.minLength(1), z.maxLength(FILE_JOB_MAX_ITEMS)),
  onConflict: z.optional(z.enum(FILE_JOB_CONFLICTS)),
});
export type NewFileJob = z.infer<typeof NewFileJob>;

/** Body of POST /api/jobs/{id}/answer: the answer to a waiting job's conflict question. */
export const FileJobAnswer = z.object({
  choice: z.enum(FILE_JOB_CHOICES),
  /** Use the same answer for every later conflict of the job. */
  applyToAll: z.optional(z.boolean()),
});
export type FileJobAnswer = z.infer<typeof FileJobAnswer>;

/** Path parameter of /api/jobs/{id}…. */
export const FileJobIdParams = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

/** A job as GET /api/jobs, GET /api/jobs/{id} and the event stream's `job` events carry it. */
export const FileJob = z.object({
  id: z.string(),
  kind: z.enum(FILE_JOB_KINDS),
  state: z.enum(FILE_JOB_STATES),
  onConflict: z.enum(FILE_JOB_CONFLICTS),
  /** How many items the job was given, and the first of them (for a title). */
  itemCount: z.number(),
  first: FileJobItem,
  /** Files under the items (a folder counts its files), once measured; 0 before. */
  filesTotal: z.number(),
  filesDone: z.number(),
  /** Items whose destination existed: left alone (skip), or replaced by the item. */
  skipped: z.number(),
  replaced: z.number(),
  bytesTotal: z.number(),
  bytesDone: z.number(),
  /** Bytes per second of the current (or last) run. */
  rate: z.number(),
  /** The path being worked on. */
  current: z.nullable(z.string()),
  /** While `waiting`: the destination that exists. */
  question: z.nullable(z.object({ path: z.string() })),
  /** Why the job failed: the HTTP status the same refusal would have and a reason. */
  error: z.nullable(z.object({ status: z.number(), message: z.string() })),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.nullable(z.number()),
});
export type FileJob = z.infer<typeof FileJob>;

/** Reply of POST /api/jobs (202). */
export const FileJobCreated = z.object({ id: z.string() });

/** The event-stream event type of job updates. */
export const FILE_JOB_EVENT = 'job';
