// What services depend on: the interfaces and the factory, not the implementations.
export type { AttemptCounter } from './attempt-counter.ts';
export type { NamedLock } from './named-lock.ts';
export type { UploadLease, UploadLeases } from './upload-leases.ts';
export type { BusEvent, BusListener, EventBus } from './event-bus.ts';
export type { EveryOptions, Job, JobHandler, ScheduleOptions, Scheduler } from './scheduler.ts';
export type { CoordinationLog } from './log.ts';
export { realTimers, repeat, skewSeconds, systemClock, type Clock, type Timers } from './timers.ts';
export {
  createCoordination,
  newInstanceId,
  PRUNE_INTERVAL_MS,
  PRUNE_KIND,
  type Coordination,
  type CoordinationMode,
  type CoordinationOptions,
} from './coordination.ts';
export {
  DatabaseDavLocks,
  MemoryDavLocks,
  type DavLock,
  type DavLockRequest,
  type DavLocks,
} from './dav-locks.ts';
