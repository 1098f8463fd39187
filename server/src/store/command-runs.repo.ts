import type { Db } from './db.ts';
import { recordableText } from './engine.ts';

/** A run to record: who ran what, where, how it ended and when. */
export interface CommandRunRecord {
  kind: string;
  userId: number;
  username: string;
  path: string;
  line: string;
  outcome: string;
  exitCode: number | null;
  durationMs: number;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

/** The record of shell-panel and hook runs (newest first when listed). */
export class CommandRunsRepo {
  constructor(private readonly db: Db) {}

  /** Records a run; a U+0000 in its line or path is kept as ␀ (U+2400) on either engine. */
  async insert(run: CommandRunRecord): Promise<void> {
    await this.db
      .insertInto('command_runs')
      .values({
        kind: run.kind,
        user_id: run.userId,
        username: run.username,
        path: recordableText(run.path),
        line: recordableText(run.line),
        outcome: run.outcome,
        exit_code: run.exitCode,
        duration_ms: run.durationMs,
        started_at: run.startedAt,
      })
      .execute();
  }

  /** The latest runs, newest first. */
  async latest(limit: number): Promise<(CommandRunRecord & { id: number })[]> {
    const rows = await this.db
      .selectFrom('command_runs')
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      userId: Number(row.user_id),
      username: row.username,
      path: row.path,
      line: row.line,
      outcome: row.outcome,
      exitCode: row.exit_code === null ? null : Number(row.exit_code),
      durationMs: Number(row.duration_ms),
      startedAt: Number(row.started_at),
    }));
  }
}
