import * as z from 'zod/mini';
import { PREVIEW_FAMILIES } from './previews.ts';

/** One mount the served root crosses, and whether folder watches on it see every change. */
export const MountReport = z.object({
  /** Where it is mounted, relative to the served root: `/` for the mount that holds the root. */
  path: z.string(),
  /** The file system type. */
  type: z.string(),
  /** Whether inotify on it sees every change, whoever makes it. */
  trusted: z.boolean(),
});

/** Reply of `GET /health` and `GET /api/health` (any method), for load balancers. */
export const HealthReport = z.object({
  status: z.literal('OK'),
  details: z.object({
    mounts: z.array(MountReport),
    /** False when some mount's watches cannot be trusted and search is reconciled on a timer. */
    watchesTrusted: z.boolean(),
    /** How often search is reconciled where watches are not trusted; null when they all are. */
    reconcileSeconds: z.nullable(z.number()),
    /** How other instances' changes reach this one. */
    instanceChanges: z.enum(['host', 'database', 'disconnected']),
    /** Which kinds of file get pictures here, by the decoders installed (docs/previews.md). */
    previews: z.record(z.enum(PREVIEW_FAMILIES), z.boolean()),
  }),
});
export type HealthReport = z.infer<typeof HealthReport>;

/** Reply of `GET /api/memory` (admins): the process's memory and its two big holders, in bytes. */
export const MemoryReport = z.object({
  process: z.object({
    rss: z.number(),
    heapTotal: z.number(),
    heapUsed: z.number(),
    external: z.number(),
    arrayBuffers: z.number(),
  }),
  searchIndex: z.object({ ready: z.boolean(), entries: z.number(), bytes: z.number() }),
  listingCache: z.object({ capacity: z.number(), bytes: z.number(), folders: z.number() }),
});
export type MemoryReport = z.infer<typeof MemoryReport>;
