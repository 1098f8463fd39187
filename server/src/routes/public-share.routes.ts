import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { PathParams, PublicShareQuery } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendArchive, sendFile } from '../http/file-reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { listingJson } from '../services/resources/listing.ts';
import { type ShareCredentials } from '../services/public-share.service.ts';
import { audit } from '../http/audit.ts';
import { declaredLength } from '../http/declared-length.ts';

/**
 * What a visitor presents. The token may come in `?token=` (the reference client) or `?auth=`:
 * either way it is a share download token, never a user session (requireUser is not involved).
 */
function credentialsOf(request: {
  headers: IncomingHttpHeaders;
  query: PublicShareQuery;
  ip: string;
}): ShareCredentials {
  const header = request.headers['x-share-password'];
  return {
    password: typeof header === 'string' ? header : undefined,
    token: request.query.token || request.query.auth || undefined,
    visit: request.query.visit || undefined,
    address: request.ip,
  };
}

/** Public share routes: no session, only the link. */
export async function publicShareRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.publicShares;

  // Uploads into file requests stream the raw body to ScopedFs; nothing here reads JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const schema = { params: PathParams, querystring: PublicShareQuery };

  app.post('/public/upload/*', { schema }, async (request, reply) => {
    try {
      const saved = await service.upload(
        request.params['*'],
        credentialsOf(request),
        request.raw,
        declaredLength(request),
      );
      return await reply.send(saved);
    } catch (error) {
      // A visitor who hangs up mid-file is not a server failure (nothing was written).
      if (request.raw.destroyed && !request.raw.complete) {
        throw errors.badRequest('upload interrupted');
      }
      throw error;
    }
  });

  app.get('/public/share/*', { schema }, async (request, reply) => {
    const result = await service.info(request.params['*'], credentialsOf(request));
    if (result.kind === 'json') return reply.send(result.body);
    const { listing } = result;
    const stream = Readable.from(listingJson(listing), { objectMode: false });
    stream.once('close', () => listing.done());
    return reply.type('application/json; charset=utf-8').send(stream);
  });

  app.get('/public/dl/*', { exposeHeadRoute: false, schema }, async (request, reply) => {
    const [hash = '', ...inside] = request.params['*'].split('/');
    audit(request, 'share.download', `share:${hash}`).details.path = `/${inside.join('/')}`;
    const signal = clientGone(reply);
    const result = await service.download(
      request.params['*'],
      credentialsOf(request),
      request.query,
      request.headers.range,
      signal,
      request.log,
    );
    if (result.kind === 'file') return sendFile(request, reply, result.file, signal);
    return sendArchive(reply, result);
  });
}
