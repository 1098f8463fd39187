import type { HOOK_EVENTS } from '@cabinet/protocol';
import { CommandLineError, parseCommandLine } from '../commands/command-line.ts';
import { commandEnvironment } from '../commands/environment.ts';
import { runLine, type RunResult } from '../commands/run-line.ts';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FastifyBaseLogger } from 'fastify';
import { errors } from '../errors.ts';
import type { ScopedFs } from '../fs/scoped-fs.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { recordRun } from './command-runs.ts';
import type { AuditLog } from './audit/audit-log.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

/** An event hooks fire for. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** What an operation acts on: the user-visible path and the real one of the file or folder. */
export interface HookSubject {
  path: string;
  real: string;
  /** Real destination of a copy or rename. */
  destination?: string;
}

/** Why one hook line failed, for the error and the log. */
type HookFailure = { line: string; reason: string };

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface EventHooksDeps {
  config: Pick<ServerConfig, 'commandOutputLimit' | 'enableExec' | 'hookTimeout'>;
  store: Pick<Store, 'commandRuns'>;
  settings: SettingsRepo;
  log: FastifyBaseLogger;
}

/**
 * The admin's event hooks (settings `commands`), run only when execution is
 * enabled. Each line is parsed like a shell-panel line, except that `$FILE`, `$SCOPE`, `$TRIGGER`,
 * `$USERNAME` and `$DESTINATION` expand (each to exactly one argument, never re-split or globbed,
 * so a hostile file name stays a name) and a trailing `&` runs it in the background. The same
 * variables are in the environment, with PATH, HOME and LANG and nothing of the server's. A
 * failing before-hook stops the operation; after-hooks only log their failures.
 */
export class EventHooks {
  constructor(
    private readonly ctx: EventHooksDeps,
    private readonly audit?: AuditLog,
    private readonly now: Clock = systemClock,
  ) {}

  /** Runs the before-hooks of an event; throws a 400 naming the hook when one fails. */
  async before(event: HookEvent, user: UserRecord, fs: ScopedFs, subject: HookSubject) {
    const failure = await this.fire(`before_${event}`, user, fs, subject);
    if (failure) {
      throw errors.badRequest(`the before_${event} hook "${failure.line}" ${failure.reason}`);
    }
  }

  /** Runs the after-hooks of an event; the operation is done, so a failure is only logged. */
  async after(event: HookEvent, user: UserRecord, fs: ScopedFs, subject: HookSubject) {
    await this.fire(`after_${event}`, user, fs, subject);
  }

  /** Runs a trigger's lines in order, stopping at the first failure, which it returns. */
  private async fire(
    trigger: string,
    user: UserRecord,
    fs: ScopedFs,
    subject: HookSubject,
  ): Promise<HookFailure | undefined> {
    if (!this.ctx.config.enableExec) return undefined;
    const settings = await this.ctx.settings.get();
    const lines = settings.commands[trigger] ?? [];
    const variables = {
      FILE: subject.real,
      SCOPE: user.scope,
      TRIGGER: trigger,
      USERNAME: user.username,
      DESTINATION: subject.destination ?? fs.scopeReal,
    };
    for (const line of lines) {
      const startedAt = this.now();
      const log = this.ctx.log.child({ hook: trigger, line });
      const record = (outcome: string, exitCode: number | null, durationMs: number) =>
        recordRun(
          this.ctx,
          {
            kind: trigger,
            userId: user.id,
            username: user.username,
            path: subject.path,
            line,
            outcome,
            exitCode,
            durationMs,
            startedAt,
          },
          this.audit && { log: this.audit },
        );
      let parsed;
      try {
        parsed = parseCommandLine(line, { variables, allowBackground: true });
      } catch (error) {
        if (!(error instanceof CommandLineError)) throw error;
        log.warn(error.message);
        await record('refused', null, 0);
        return { line, reason: `was refused: ${error.message}` };
      }
      const running = runLine(parsed, {
        cwd: fs.scopeReal,
        env: commandEnvironment(fs.scopeReal, variables),
        shell: settings.shell,
        timeoutMs: this.ctx.config.hookTimeout * 1000,
        outputLimit: this.ctx.config.commandOutputLimit,
        onLine: (output) => log.info({ output }, 'hook output'),
      }).then(
        async (result) => {
          await record(result.outcome, result.exitCode, result.durationMs);
          const reason = failureOf(result);
          if (reason) log.warn({ exitCode: result.exitCode, outcome: result.outcome }, reason);
          return reason;
        },
        async (error: unknown) => {
          log.error({ err: error }, 'hook could not run');
          await record('failed', null, this.now() - startedAt);
          return 'could not run';
        },
      );
      // A background hook is not waited for; it still has its time limit, record and log.
      if (parsed.background) continue;
      const reason = await running;
      if (reason) return { line, reason };
    }
    return undefined;
  }
}

/** How a hook run failed, or undefined when it succeeded. */
function failureOf(result: RunResult): string | undefined {
  if (result.outcome === 'timeout') return 'ran past its time limit';
  if (result.outcome === 'output-limit') return 'printed more than its output limit';
  if (result.exitCode !== 0) return `failed with exit status ${result.exitCode}`;
  return undefined;
}
