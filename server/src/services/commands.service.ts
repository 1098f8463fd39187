import { COMMAND_NOT_ALLOWED, type CommandRun } from '@cabinet/protocol';
import { CommandLineError, parseCommandLine } from '../commands/command-line.ts';
import { commandEnvironment, firstDisallowed } from '../commands/environment.ts';
import { runLine, type RunResult } from '../commands/run-line.ts';
import type { AppContext } from '../context.ts';
import { canonicalPath } from '../fs/canonical-path.ts';
import { ScopedFs } from '../fs/scoped-fs.ts';
import type { CommandRunRecord } from '../store/command-runs.repo.ts';
import { recordRun } from './command-runs.ts';
import type { AuditLog } from './audit/audit-log.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { formatTime } from './resources/file-info.ts';
import { canExecute } from './permissions.ts';

/** What a shell-panel line came to: refused with messages for the user, or run. */
export type ShellOutcome =
  { kind: 'refused'; messages: string[] } | { kind: 'ran'; result: RunResult };

export interface ShellRunOptions {
  /** Each output line, in order of arrival. */
  onLine: (line: string) => void;
  /** Aborted when the socket closes: the command's processes are killed. */
  signal: AbortSignal;
  /** The client address the run is audited with (docs/audit.md). */
  address?: string;
}

/** Runs listed by GET /api/command-runs at most. */
export const MAX_LISTED_RUNS = 500;

/**
 * The shell panel's commands (docs/commands.md): execution enabled, the
 * execute permission, a line Cabinet can parse, every command on the user's allow-list, a
 * working folder inside the scope that the rules allow; then the line runs without a shell (unless
 * the admin set one) with a minimal environment, a time limit and an output limit. Every attempt
 * is recorded.
 */
export class CommandsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit?: AuditLog,
  ) {}

  /** Whether the user may run commands at all. */
  mayExecute(user: UserRecord): boolean {
    return this.ctx.config.enableExec && canExecute(user);
  }

  async run(
    user: UserRecord,
    dir: string,
    line: string,
    options: ShellRunOptions,
  ): Promise<ShellOutcome> {
    const startedAt = Date.now();
    // Recorded as the user-visible folder; a path that is not one (a NUL byte) is kept as sent.
    const shownDir = dir.includes('\0') ? dir : canonicalPath(dir).path;
    const record = (fields: Pick<CommandRunRecord, 'outcome' | 'exitCode'>, path = shownDir) =>
      recordRun(
        this.ctx,
        {
          kind: 'command',
          userId: user.id,
          username: user.username,
          path,
          line,
          startedAt,
          durationMs: Date.now() - startedAt,
          ...fields,
        },
        this.audit && { log: this.audit, address: options.address },
      );
    const refuse = async (messages: string[]): Promise<ShellOutcome> => {
      await record({ outcome: 'refused', exitCode: null });
      return { kind: 'refused', messages };
    };

    if (!this.mayExecute(user)) return refuse([COMMAND_NOT_ALLOWED]);
    let parsed;
    try {
      parsed = parseCommandLine(line);
    } catch (error) {
      if (error instanceof CommandLineError) return refuse([error.message]);
      throw error;
    }
    const disallowed = firstDisallowed(
      parsed.steps.flatMap((s) => s.commands),
      user.commands,
    );
    if (disallowed !== undefined) {
      return refuse([
        COMMAND_NOT_ALLOWED,
        `"${disallowed}" is not one of the commands you may run.`,
      ]);
    }
    const fs = await ScopedFs.forUser(this.ctx, user);
    let folder;
    try {
      folder = await fs.stat(dir);
    } catch {
      return refuse(['The folder does not exist or you may not open it.']);
    }
    if (!folder.stat.isDirectory()) return refuse(['Commands run in a folder, not in a file.']);
    // A command is not confined by ScopedFs: it never runs in a folder shared with the user.
    if (fs.isInGrant(folder)) return refuse(['Commands do not run in shared folders.']);

    const settings = await this.ctx.settings.get();
    const result = await runLine(parsed, {
      cwd: folder.real,
      env: commandEnvironment(fs.scopeReal),
      shell: settings.shell,
      timeoutMs: this.ctx.config.commandTimeout * 1000,
      outputLimit: this.ctx.config.commandOutputLimit,
      onLine: options.onLine,
      signal: options.signal,
    });
    await record({ outcome: result.outcome, exitCode: result.exitCode }, folder.path);
    return { kind: 'ran', result };
  }

  /** The latest recorded runs, newest first (admins). */
  async latest(limit: number): Promise<CommandRun[]> {
    const rows = await this.ctx.store.commandRuns.latest(
      Math.min(Math.max(1, limit), MAX_LISTED_RUNS),
    );
    return rows.map((row) => ({
      ...row,
      outcome: row.outcome as CommandRun['outcome'],
      startedAt: formatTime(row.startedAt),
    }));
  }
}
