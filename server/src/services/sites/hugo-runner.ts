import type { AppContext } from '../../context.ts';
import { commandEnvironment } from '../../commands/environment.ts';
import { runLine } from '../../commands/run-line.ts';

/** Hugo's own default when commands have no time limit configured. */
const DEFAULT_TIMEOUT_MS = 120_000;
/** Kept of a run's output when commands have no output limit configured. */
const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;

export interface HugoRun {
  ok: boolean;
  log: string;
  exitCode: number;
  outcome: string;
}

/**
 * Runs `hugo` found on PATH with argv only (no shell), the site folder as working folder, and the
 * time and output limits of commands; the environment is a command's (no server secrets).
 */
export async function runHugo(
  ctx: AppContext,
  cwd: string,
  args: string[],
  env: Readonly<Record<string, string>> = {},
): Promise<HugoRun> {
  const lines: string[] = [];
  const limit = ctx.config.commandOutputLimit || DEFAULT_OUTPUT_LIMIT;
  const result = await runLine(
    { steps: [{ operator: ';', commands: [['hugo', ...args]] }], background: false },
    {
      cwd,
      env: commandEnvironment(cwd, env),
      shell: [],
      timeoutMs:
        ctx.config.commandTimeout > 0 ? ctx.config.commandTimeout * 1000 : DEFAULT_TIMEOUT_MS,
      outputLimit: limit,
      onLine: (line) => lines.push(line),
    },
  );
  let log = lines.join('\n');
  if (result.exitCode === 127 && /command not found/.test(log)) {
    log = 'hugo is not installed: install Debian\'s "hugo" package (it must be on PATH).';
  } else if (result.outcome === 'timeout') {
    log += `\nStopped: hugo ran longer than ${Math.round(ctx.config.commandTimeout || 120)} s.`;
  } else if (result.outcome === 'output-limit') {
    log += `\nStopped: hugo printed more than ${limit} bytes.`;
  }
  return {
    ok: result.outcome === 'exited' && result.exitCode === 0,
    log,
    exitCode: result.exitCode,
    outcome: result.outcome,
  };
}
