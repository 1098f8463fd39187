import type { IncomingMessage } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import { PathParams, TusCreateQuery } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { audit } from '../http/audit.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { AppendRejected, type UploadState } from '../services/tus/upload-types.ts';
import {
  TUS_EXTENSIONS,
  TUS_VERSION,
  effectiveMethod,
  formatExpires,
  isOffsetContentType,
  isSupportedVersion,
  parseContentLength,
  parseUploadLength,
  parseUploadMetadata,
  parseUploadOffset,
  uploadLocation,
} from '../http/tus-codec.ts';

/** Every `/api/tus/<path>` route: the upload's path, and `override` for creation. */
const TUS_SCHEMA = { params: PathParams, querystring: TusCreateQuery };
type TusRequest = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  typeof TUS_SCHEMA,
  ZodTypeProvider
>;

/** Request bodies at most this large are read and dropped after a refusal; larger ones close. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Resumable uploads, `/api/tus/<path>` (docs/uploads.md): OPTIONS, POST
 * (create, optionally with data), HEAD/GET (offset), PATCH (append), DELETE (terminate), plus
 * POST with X-HTTP-Method-Override. Every reply carries Tus-Resumable. Bodies are never parsed or
 * buffered: the service streams them to disk.
 */
export async function tusRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.tus;

  // Any content type reaches the handlers unread; PATCH checks its own (415) and streams the body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' && !isSupportedVersion(request.headers['tus-resumable'])) {
      void reply.header('Tus-Version', TUS_VERSION);
      return sendStatus(reply, 412);
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('Tus-Resumable', TUS_VERSION);
    return payload;
  });

  const options = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header('Tus-Version', TUS_VERSION)
      .header('Tus-Extension', TUS_EXTENSIONS.join(','))
      .send();
  app.options('/tus', options);
  app.options('/tus/*', options);

  const guard = { preHandler: requireUser(services.sessions), schema: TUS_SCHEMA };

  /** The request that landed an override upload over a file: recorded as a replace. */
  const replacedBy = (request: TusRequest, state: UploadState) => {
    if (state.replaced) audit(request, 'file.replace', state.replaced).details = { via: 'tus' };
  };

  const create = async (request: TusRequest, reply: FastifyReply) => {
    const state = await service.create(currentUser(request), pathOf(request), {
      uploadLength: () =>
        parseUploadLength(request.headers['upload-length'], request.headers['upload-defer-length']),
      metadata: () => {
        const header = request.headers['upload-metadata'];
        parseUploadMetadata(header);
        return typeof header === 'string' ? header.trim() : '';
      },
      override: request.query.override,
      withData: isOffsetContentType(request.headers['content-type']),
      contentLength: parseContentLength(request.headers['content-length']),
      body: request.raw,
    });
    replacedBy(request, state);
    void reply
      .header('Location', uploadLocation(ctx.config.baseURL, state.path))
      .header('Upload-Offset', String(state.offset))
      .header('Upload-Expires', formatExpires(state.expiresAt));
    return sendStatus(reply, 201);
  };

  const head = async (request: TusRequest, reply: FastifyReply) => {
    const state = await service.status(currentUser(request), pathOf(request));
    replacedBy(request, state);
    void stateHeaders(reply, state).header('Cache-Control', 'no-store');
    return sendStatus(reply, 200);
  };

  const patch = async (request: TusRequest, reply: FastifyReply) => {
    const state = await service.append(currentUser(request), pathOf(request), {
      offsetContentType: isOffsetContentType(request.headers['content-type']),
      uploadOffset: () => parseUploadOffset(request.headers['upload-offset']),
      contentLength: parseContentLength(request.headers['content-length']),
      body: request.raw,
    });
    replacedBy(request, state);
    void reply
      .header('Upload-Offset', String(state.offset))
      .header('Upload-Expires', formatExpires(state.expiresAt));
    return reply.code(204).send();
  };

  const terminate = async (request: TusRequest, reply: FastifyReply) => {
    await service.terminate(currentUser(request), pathOf(request));
    return reply.code(204).send();
  };

  app.post('/tus/*', guard, async (request, reply) => {
    switch (effectiveMethod('POST', request.headers['x-http-method-override'])) {
      case 'POST':
        return create(request, reply);
      case 'PATCH':
        return patch(request, reply);
      case 'DELETE':
        return terminate(request, reply);
      case 'HEAD':
      case 'GET':
        return head(request, reply);
      default:
        throw errors.methodNotAllowed();
    }
  });
  app.route({ method: ['HEAD', 'GET'], url: '/tus/*', ...guard, handler: head });
  app.patch('/tus/*', guard, patch);
  app.delete('/tus/*', guard, terminate);

  // A refused chunk answers with the offset that stands; its body is drained or the socket closed.
  app.setErrorHandler(async (error, request, reply) => {
    if (!(error instanceof AppendRejected)) {
      closeIfBodyUnread(request, reply);
      throw error;
    }
    void reply.header('Upload-Offset', String(error.offset));
    if (error.bodyLeftUnread) closeIfBodyUnread(request, reply);
    return sendStatus(reply, error.status);
  });
}

/** The upload's virtual path: the router has percent-decoded the wildcard exactly once. */
function pathOf(request: TusRequest): string {
  return `/${request.params['*']}`;
}

function stateHeaders(reply: FastifyReply, state: UploadState): FastifyReply {
  void reply
    .header('Upload-Offset', String(state.offset))
    .header('Upload-Length', String(state.length))
    .header('Upload-Expires', formatExpires(state.expiresAt));
  if (state.metadata) void reply.header('Upload-Metadata', state.metadata);
  return reply;
}

/**
 * After a refusal the rest of the body is still on the wire. Node reads and drops it after the
 * reply, which keeps the connection usable; a large or unknown remainder is not worth reading, so
 * the connection closes instead.
 */
function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete || request.raw.destroyed) return;
  const declared = Number(request.headers['content-length']);
  if (!Number.isFinite(declared) || declared > DRAIN_LIMIT_BYTES) {
    void reply.header('Connection', 'close');
  }
  request.raw.resume();
}
