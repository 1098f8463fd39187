import * as z from 'zod/mini';
import { QueryText } from './query.ts';

/**
 * WebSocket close codes of `GET /api/command/{dir}` (docs/commands.md). Clients treat any close
 * as the end of the command; the code and reason say how it ended.
 */
export const COMMAND_CLOSE = {
  /** The command ran and exited with status 0. */
  success: 1000,
  /** Refused: execution disabled, no execute permission, a command not on the allow-list. */
  notAllowed: 1008,
  /** It ran and failed (non-zero exit, time or output limit, not found), or could not start. */
  failed: 1011,
} as const;

/** The message a refused socket gets before its close (the reference's wording). */
export const COMMAND_NOT_ALLOWED = 'Command not allowed.';

/** How a recorded run ended. */
export const CommandRunOutcome = z.enum([
  'exited',
  'timeout',
  'output-limit',
  'aborted',
  'refused',
  'failed',
]);
export type CommandRunOutcome = z.infer<typeof CommandRunOutcome>;

/** One recorded run of the shell panel or of an event hook (`GET /api/command-runs`). */
export const CommandRun = z.object({
  id: z.number(),
  /** `command` for the shell panel, else the hook's event (`before_upload`, …). */
  kind: z.string(),
  userId: z.number(),
  username: z.string(),
  /** The user-visible folder it ran in (shell panel) or the file the event concerns (hooks). */
  path: z.string(),
  line: z.string(),
  outcome: CommandRunOutcome,
  /** Exit status; null when it never ran (refused) or could not start. */
  exitCode: z.nullable(z.number()),
  durationMs: z.number(),
  /** RFC 3339 start time. */
  startedAt: z.string(),
});
export type CommandRun = z.infer<typeof CommandRun>;

/** Reply of `GET /api/command-runs`: the latest runs, newest first. */
export const CommandRunList = z.array(CommandRun);

/** Query of `GET /api/command-runs` (administrators). */
export const CommandRunsQuery = z.object({
  /**
   * How many of the latest runs to list, a positive whole number (100 when absent); anything else
   * is answered 400 by the route.
   */
  limit: z.optional(QueryText),
});
export type CommandRunsQuery = z.output<typeof CommandRunsQuery>;
