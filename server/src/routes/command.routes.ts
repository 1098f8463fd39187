import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { COMMAND_CLOSE, CommandRunsQuery, PathParams } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireAdmin, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { type ShellOutcome } from '../services/commands.service.ts';

/** A command line longer than this is not a command line. */
const MAX_LINE_BYTES = 64 * 1024;
/** A socket that never sends its line is closed after this long. */
const FIRST_LINE_WAIT_MS = 60_000;

/**
 * A browser sends Origin on every WebSocket handshake, and cookies with it: a page elsewhere must
 * not open a socket with the user's cookie (cross-site WebSocket hijacking). Clients that are not
 * browsers send no Origin and authenticate with the header or query token.
 */
async function requireSameOrigin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw errors.forbidden();
  }
  if (host.toLowerCase() !== (request.headers.host ?? '').toLowerCase()) throw errors.forbidden();
}

/** A limit in seconds as people say it: "90 seconds", "10 minutes", "1 hour". */
function formatSeconds(seconds: number): string {
  const [n, unit] =
    seconds % 3600 === 0
      ? [seconds / 3600, 'hour']
      : seconds % 60 === 0
        ? [seconds / 60, 'minute']
        : [seconds, 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The close frame for how a run ended, after a last line saying why it was stopped. */
function finish(socket: WebSocket, outcome: ShellOutcome, ctx: AppContext): void {
  if (outcome.kind === 'refused') {
    for (const message of outcome.messages) socket.send(message);
    socket.close(COMMAND_CLOSE.notAllowed, 'Command not allowed');
    return;
  }
  const { result } = outcome;
  if (result.outcome === 'timeout') {
    socket.send(
      `Stopped: the command ran longer than ${formatSeconds(ctx.config.commandTimeout)}.`,
    );
  } else if (result.outcome === 'output-limit') {
    socket.send(
      `Stopped: the command printed more than ${ctx.config.commandOutputLimit} bytes of output.`,
    );
  }
  if (result.outcome === 'exited' && result.exitCode === 0) {
    socket.close(COMMAND_CLOSE.success);
  } else {
    socket.close(COMMAND_CLOSE.failed, `Exit status ${result.exitCode}`);
  }
}

/**
 * `GET /api/command/{dir}`: a WebSocket authenticated before the upgrade (header,
 * GET cookie or `?auth=`), same origin only. The first non-blank message is the command line;
 * output lines come back as messages while it runs; the close code says how it ended; closing the
 * socket kills the command. `GET /api/command-runs` lists the recorded runs for administrators.
 */
export async function commandRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  await app.register(websocket, { options: { maxPayload: MAX_LINE_BYTES } });
  const service = services.commands;

  app.route({
    method: 'GET',
    url: '/command/*',
    schema: { params: PathParams },
    preHandler: [requireUser(services.sessions, { queryToken: true }), requireSameOrigin],
    // A plain GET that did not ask to upgrade is told so.
    handler: async (_request, reply) => sendStatus(reply, 426),
    wsHandler: (socket: WebSocket, request) => {
      const user = currentUser(request);
      const dir = request.params['*'];
      const abort = new AbortController();
      const idle = setTimeout(
        () => socket.close(COMMAND_CLOSE.failed, 'No command'),
        FIRST_LINE_WAIT_MS,
      );
      socket.once('close', () => {
        clearTimeout(idle);
        abort.abort();
      });
      let started = false;
      socket.on('message', (data: Buffer) => {
        const line = data.toString('utf8');
        if (started || line.trim() === '') return;
        started = true;
        clearTimeout(idle);
        const send = (text: string) => {
          if (socket.readyState === socket.OPEN) socket.send(text);
        };
        service
          .run(user, dir, line, { onLine: send, signal: abort.signal, address: request.ip })
          .then((outcome) => {
            if (socket.readyState === socket.OPEN) finish(socket, outcome, ctx);
          })
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'command failed');
            if (socket.readyState === socket.OPEN) {
              socket.close(COMMAND_CLOSE.failed, 'Internal Server Error');
            }
          });
      });
    },
  });

  app.get(
    '/command-runs',
    { preHandler: requireAdmin(services.sessions), schema: { querystring: CommandRunsQuery } },
    async (request) => {
      const limit = request.query.limit === undefined ? 100 : Number(request.query.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        throw errors.badRequest('limit must be a positive whole number');
      }
      return service.latest(limit);
    },
  );
}
