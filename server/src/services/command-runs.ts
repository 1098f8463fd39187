import type { AppContext } from '../context.ts';
import type { CommandRunRecord } from '../store/command-runs.repo.ts';

/** Records a run; a failing database write is logged rather than failing the command. */
export async function recordRun(ctx: AppContext, run: CommandRunRecord): Promise<void> {
  try {
    await ctx.store.commandRuns.insert(run);
  } catch (error) {
    ctx.log.error({ err: error, kind: run.kind }, 'could not record a command run');
  }
}
