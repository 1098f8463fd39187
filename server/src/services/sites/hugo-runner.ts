import type { SitesContext } from './sites-context.ts';
import { commandEnvironment } from '../../commands/environment.ts';
import { runLine, type RunResult } from '../../commands/run-line.ts';
import { findCommand } from '../../process/run-process.ts';
import type { WarmLeader } from '../../process/process-group.ts';
import type { HugoMountsCache } from './hugo-mounts-cache.ts';
import type { LinkWalkCache } from '../../fs/link-walk-cache.ts';
import { HUGO_POLICY, parseMounts, reachOutside, type HugoModule } from './hugo-policy.ts';

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

export interface HugoOptions {
  /** Variables for this run (Hugo's own, such as HUGO_RESOURCEDIR); the policy's always win. */
  env?: Readonly<Record<string, string>>;
  /** Real folders outside the site that the run may read besides it (a preview's scratch copy). */
  alsoReadable?: readonly string[];
  /** Stops Hugo (its process group) when aborted: a preview superseded by a newer one. */
  signal?: AbortSignal;
  /** The site's output folder (real): not walked for symlinks, Hugo does not read it. */
  output?: string;
  /** Previews: the mounts probe's answer, kept while the configuration is unchanged. */
  mounts?: HugoMountsCache;
  /** Previews: the symlink walk of the site, kept per folder while it is unchanged. */
  links?: LinkWalkCache;
  /**
   * Files Hugo reads that are still being written (a preview's post): the checks run meanwhile,
   * Hugo starts once it settles (not at all if it fails).
   */
  ready?: Promise<unknown>;
  /**
   * The group leader started ahead for this run (a preview's), if there is one by the time Hugo
   * starts: it runs Hugo's render. The caller disposes of it.
   */
  warm?: () => WarmLeader | undefined;
}

/**
 * Runs `hugo` found on PATH with argv only (no shell), the site folder as working folder, and the
 * time and output limits of commands. The environment is a command's (no server secrets, no proxy
 * variables) plus HUGO_POLICY, and the run is refused before it starts when the site's
 * configuration or a symlink would have Hugo read outside the site folder (hugo-policy.ts).
 */
export async function runHugo(
  ctx: SitesContext,
  cwd: string,
  args: string[],
  options: HugoOptions = {},
): Promise<HugoRun> {
  const env = commandEnvironment(cwd, { ...options.env, ...HUGO_POLICY });
  // Hugo is found on PATH while the checks run; runLine then has only its path to confirm.
  const program = findCommand('hugo', env.PATH).then((found) => found ?? 'hugo');
  // The probe makes the publish folder as a build does: pointed where the build writes, not at
  // the site's own public/.
  const destination = args[args.indexOf('--destination') + 1];
  const probeEnv = destination === undefined ? env : { ...env, HUGO_PUBLISHDIR: destination };
  const probe = async () => {
    const run = await hugo(ctx, cwd, [await program, 'config', 'mounts'], probeEnv, options.signal);
    return run.ok ? parseMounts(run.log) : run;
  };
  const links = options.links;
  const judge = (modules: readonly HugoModule[]) =>
    reachOutside(
      cwd,
      modules,
      options.alsoReadable,
      options.output,
      links && ((folder, walk) => links.linkLeadingOut(folder, walk)),
    );
  // A preview judges the mounts it was told last time while the cache checks that they still
  // hold; when they do not, the new answer is judged again.
  const known = options.mounts?.peek(cwd);
  const guess = known && judge(known);
  guess?.catch(() => undefined);
  const modules = options.mounts ? await options.mounts.get(cwd, probe) : await probe();
  if (!Array.isArray(modules)) return modules;
  const refusal = modules === known ? await guess : await judge(modules);
  if (refusal !== undefined) {
    return { ok: false, log: `Refused: ${refusal}.`, exitCode: 1, outcome: 'refused' };
  }
  await options.ready;
  if (options.signal?.aborted)
    return { ok: false, log: 'Stopped.', exitCode: 1, outcome: 'aborted' };
  return hugo(ctx, cwd, [await program, ...args], env, options.signal, options.warm?.());
}

/** One run of Hugo; `argv` starts with its path (or `hugo` when it was not found on PATH). */
async function hugo(
  ctx: SitesContext,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
  signal?: AbortSignal,
  warm?: WarmLeader,
): Promise<HugoRun> {
  const lines: string[] = [];
  const limit = ctx.config.commandOutputLimit || DEFAULT_OUTPUT_LIMIT;
  const result: RunResult = await runLine(
    { steps: [{ operator: ';', commands: [argv] }], background: false },
    {
      cwd,
      env,
      shell: [],
      timeoutMs:
        ctx.config.commandTimeout > 0 ? ctx.config.commandTimeout * 1000 : DEFAULT_TIMEOUT_MS,
      outputLimit: limit,
      onLine: (line) => lines.push(line),
      signal,
      warm,
    },
  );
  let log = lines.join('\n');
  if (result.notInstalled.length > 0) {
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
