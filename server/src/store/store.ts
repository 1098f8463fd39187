import { AppPasswordsRepo } from './app-passwords.repo.ts';
import { AttemptsRepo } from './attempts.repo.ts';
import { AuditRepo } from './audit.repo.ts';
import { DavLocksRepo } from './dav-locks.repo.ts';
import { DavPropertiesRepo } from './dav-properties.repo.ts';
import { CommandRunsRepo } from './command-runs.repo.ts';
import type { Db } from './db.ts';
import { EventsRepo } from './events.repo.ts';
import { FileJobsRepo } from './file-jobs.repo.ts';
import { JobsRepo } from './jobs.repo.ts';
import { KvRepo } from './kv.repo.ts';
import { InstancesRepo } from './instances.repo.ts';
import { LeasesRepo } from './leases.repo.ts';
import { QuotaUsageRepo } from './quota-usage.repo.ts';
import { SessionsRepo } from './sessions.repo.ts';
import { SharesRepo } from './shares.repo.ts';
import { SitesRepo } from './sites.repo.ts';
import { TeamsRepo } from './teams.repo.ts';
import { TrashRepo } from './trash.repo.ts';
import { TwoFactorRepo } from './two-factor.repo.ts';
import { OidcRepo } from './oidc.repo.ts';
import { UploadsRepo } from './uploads.repo.ts';
import { UsersRepo } from './users.repo.ts';

/** The repositories: the only code that runs SQL. */
export interface Store {
  db: Db;
  users: UsersRepo;
  kv: KvRepo;
  sessions: SessionsRepo;
  uploads: UploadsRepo;
  shares: SharesRepo;
  commandRuns: CommandRunsRepo;
  /** Coordination across instances (docs/runtime.md): attempt counts, leases, scheduled jobs. */
  attempts: AttemptsRepo;
  leases: LeasesRepo;
  /** Running instances and their leases (docs/runtime.md). */
  instances: InstancesRepo;
  jobs: JobsRepo;
  /** Recent user events shared by instances (the database event bus). */
  events: EventsRepo;
  /** The static-site area (docs/sites.md). */
  sites: SitesRepo;
  /** Deleted items kept in the trash (docs/trash.md). */
  trash: TrashRepo;
  /** App passwords and WebDAV state (docs/webdav.md). */
  appPasswords: AppPasswordsRepo;
  davProperties: DavPropertiesRepo;
  davLocks: DavLocksRepo;
  /** Bytes used under the scopes of users with a quota (docs/quotas.md). */
  quotaUsage: QuotaUsageRepo;
  twoFactor: TwoFactorRepo;
  /** Single sign-on's pending requests and sessions (docs/sso.md). */
  oidc: OidcRepo;
  /** Who did what (docs/audit.md). */
  audit: AuditRepo;
  /** Background copy/move/delete jobs (docs/jobs.md). */
  fileJobs: FileJobsRepo;
  /** Groups, team folders and shares with people (docs/teams.md). */
  teams: TeamsRepo;
}

export function createStore(db: Db): Store {
  return {
    db,
    users: new UsersRepo(db),
    kv: new KvRepo(db),
    sessions: new SessionsRepo(db),
    uploads: new UploadsRepo(db),
    shares: new SharesRepo(db),
    commandRuns: new CommandRunsRepo(db),
    attempts: new AttemptsRepo(db),
    leases: new LeasesRepo(db),
    instances: new InstancesRepo(db),
    jobs: new JobsRepo(db),
    events: new EventsRepo(db),
    sites: new SitesRepo(db),
    trash: new TrashRepo(db),
    appPasswords: new AppPasswordsRepo(db),
    davProperties: new DavPropertiesRepo(db),
    davLocks: new DavLocksRepo(db),
    quotaUsage: new QuotaUsageRepo(db),
    twoFactor: new TwoFactorRepo(db),
    oidc: new OidcRepo(db),
    audit: new AuditRepo(db),
    fileJobs: new FileJobsRepo(db),
    teams: new TeamsRepo(db),
  };
}
