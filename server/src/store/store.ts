import { AttemptsRepo } from './attempts.repo.ts';
import { CommandRunsRepo } from './command-runs.repo.ts';
import type { Db } from './db.ts';
import { JobsRepo } from './jobs.repo.ts';
import { KvRepo } from './kv.repo.ts';
import { LeasesRepo } from './leases.repo.ts';
import { SessionsRepo } from './sessions.repo.ts';
import { SharesRepo } from './shares.repo.ts';
import { TwoFactorRepo } from './two-factor.repo.ts';
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
  jobs: JobsRepo;
  twoFactor: TwoFactorRepo;
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
    jobs: new JobsRepo(db),
    twoFactor: new TwoFactorRepo(db),
  };
}
