import type { Store } from '../store/store.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandRunRecord } from '../store/command-runs.repo.ts';
import type { AuditLog } from './audit/audit-log.ts';

/** Where a run is also told to the audit log, and from which client address (docs/audit.md). */
export interface RunAudit {
  log: AuditLog;
  address?: string;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface CommandRunsDeps {
  store: Pick<Store, 'commandRuns'>;
  log: FastifyBaseLogger;
}

/**
 * Records a run; a failing database write is logged rather than failing the command. Shell
 * commands and hooks are audited too (`command.run`, `hook.run`), with the same fields.
 */
export async function recordRun(
  ctx: CommandRunsDeps,
  run: CommandRunRecord,
  audit?: RunAudit,
): Promise<void> {
  audit?.log.record({
    action: run.kind === 'command' ? 'command.run' : 'hook.run',
    outcome:
      run.outcome === 'refused'
        ? 'refused'
        : run.outcome === 'exited' && run.exitCode === 0
          ? 'ok'
          : 'failed',
    actor: { id: run.userId, username: run.username },
    address: audit.address,
    target: run.path,
    details: {
      ...(run.kind === 'command' ? {} : { hook: run.kind }),
      line: run.line,
      exitCode: run.exitCode,
      ...(run.outcome === 'exited' ? {} : { reason: run.outcome }),
    },
  });
  try {
    await ctx.store.commandRuns.insert(run);
  } catch (error) {
    ctx.log.error({ err: error, kind: run.kind }, 'could not record a command run');
  }
}
