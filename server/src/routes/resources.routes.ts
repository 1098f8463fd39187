import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  COMPACT_LISTING_TYPE,
  PathParams,
  ResourceQuery,
  TransferQuery,
  UploadQuery,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { listingJson, type Listing } from '../services/resources/listing.ts';
import { firstPictures } from '../services/resources/first-pictures.ts';
import { WARMED_THUMBNAILS } from '../services/preview.service.ts';
import { compactListing } from '../services/resources/compact-listing.ts';
import { ChunkPool, ReplyChunks } from '../http/reply-chunks.ts';
import { audit } from '../http/audit.ts';
import { declaredLength } from '../http/declared-length.ts';

/** Listings this small are sent as one buffer with a Content-Length; bigger ones stream. */
const STREAM_LISTING_ABOVE = 1000;
/** Written reply chunks kept for the next listings: a few replies' worth (4 MiB). */
const POOLED_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * A folder listing as JSON (or, asked `?format=compact`, as Cabinet's compact NDJSON), written
 * chunk by chunk as the client reads it when it is big.
 */
async function sendListing(
  reply: FastifyReply,
  listing: Listing,
  pool: ChunkPool,
  compact = false,
): Promise<FastifyReply> {
  void reply.type(
    compact ? `${COMPACT_LISTING_TYPE}; charset=utf-8` : 'application/json; charset=utf-8',
  );
  // JSON chunks are reused once written (http/reply-chunks.ts): a big reply holds two or three.
  const buffers = new ReplyChunks(pool);
  const chunks = compact
    ? compactListing(listing)
    : buffers.carry(listingJson(listing, (bytes) => buffers.take(bytes)));
  if (listing.numDirs + listing.numFiles <= STREAM_LISTING_ABOVE) {
    const parts: Buffer[] = [];
    try {
      for await (const part of chunks) parts.push(part);
    } finally {
      listing.done();
    }
    const whole = Buffer.concat(parts);
    buffers.recycle(); // copied: the chunks can serve the next listing
    return reply.send(whole);
  }
  const stream = Readable.from(chunks, { objectMode: false });
  buffers.attach(stream, reply.raw);
  // Ended, or cut by a client that went away: either way the listing's memory can go.
  stream.once('close', () => listing.done());
  return reply.send(stream);
}

/**
 * Runs a body-consuming operation; a client that hangs up mid-body is answered as a plain 400
 * (it cannot read it anyway) instead of being logged as a server failure.
 */
async function readingBody<T>(request: FastifyRequest, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (request.raw.destroyed && !request.raw.complete) {
      throw errors.badRequest('upload interrupted');
    }
    // Anything else is the one error handler's: coded errors as they are, the rest a logged 500.
    throw error;
  }
}

/**
 * /api/resources and /api/usage. Bodies are never parsed or
 * buffered here: every content type is left as the raw request stream for ScopedFs to write.
 */
export async function resourcesRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.resources;
  const guard = requireUser(services.sessions);
  const chunkPool = new ChunkPool(POOLED_CHUNK_BYTES);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // Bare prefixes answer 301 to the prefix with a slash, as the reference does.
  for (const prefix of ['resources', 'usage']) {
    app.all(`/${prefix}`, async (_request, reply) =>
      reply.redirect(`${ctx.config.baseURL}/api/${prefix}/`, 301),
    );
  }

  const path = { params: PathParams };
  app.get('/resources/recursive/*', { preHandler: guard, schema: path }, async (request, reply) => {
    const items = await service.recursive(
      currentUser(request),
      request.params['*'],
      clientGone(reply),
    );
    return reply.send(items);
  });

  app.get(
    '/resources/*',
    { preHandler: guard, schema: { params: PathParams, querystring: ResourceQuery } },
    async (request, reply) => {
      const result = await service.get(currentUser(request), request.params['*'], {
        checksum: request.query.checksum,
        rawText: request.headers['x-encoding'] === 'true',
      });
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      if (result.kind === 'listing') {
        const { listing } = result;
        // A browser shows the first tiles' thumbnails next: they are made once this is sent.
        // Browsers mark every request with Sec-Fetch-Site; scripts (curl, a sync tool, Node's
        // fetch) show no pictures, and nothing is converted or loaded for them.
        if (request.headers['sec-fetch-site'] !== undefined) {
          const sent = new Promise<void>((resolve) => reply.raw.once('close', resolve));
          services.preview
            .warm(
              currentUser(request),
              listing.folderPath,
              firstPictures(listing, WARMED_THUMBNAILS),
              sent,
            )
            .catch((error: unknown) => request.log.debug({ err: error }, 'no thumbnails ahead'));
        }
        return sendListing(reply, listing, chunkPool, request.query.format === 'compact');
      }
      if (result.kind === 'raw') {
        return reply
          .type('application/octet-stream')
          .header('content-length', result.size)
          .send(result.stream);
      }
      return reply.send(result.body);
    },
  );

  app.post(
    '/resources/*',
    { preHandler: guard, schema: { params: PathParams, querystring: UploadQuery } },
    async (request, reply) => {
      const { etag, replaced } = await readingBody(request, () =>
        service.upload(
          currentUser(request),
          request.params['*'],
          request.raw,
          request.query.override,
          declaredLength(request),
        ),
      );
      if (etag) void reply.header('etag', etag);
      // An override that replaced a file: recorded like a delete (docs/audit.md).
      if (replaced)
        audit(request, 'file.replace', replaced).details = { via: 'api', how: 'upload' };
      return sendStatus(reply, 200);
    },
  );

  app.put('/resources/*', { preHandler: guard, schema: path }, async (request, reply) => {
    const { etag } = await readingBody(request, () =>
      service.save(currentUser(request), request.params['*'], request.raw, declaredLength(request)),
    );
    return sendStatus(reply.header('etag', etag), 200);
  });

  app.patch(
    '/resources/*',
    { preHandler: guard, schema: { params: PathParams, querystring: TransferQuery } },
    async (request, reply) => {
      const { replaced } = await service.transferRequested(
        currentUser(request),
        request.params['*'],
        request.query,
      );
      if (replaced) {
        audit(request, 'file.replace', replaced).details = {
          via: 'api',
          how: request.query.action === 'copy' ? 'copy' : 'move',
          from: `/${request.params['*'].replace(/^\/+/, '')}`,
        };
      }
      return sendStatus(reply, 200);
    },
  );

  app.delete('/resources/*', { preHandler: guard, schema: path }, async (request, reply) => {
    const audited = audit(request, 'file.delete', `/${request.params['*'].replace(/^\/+/, '')}`);
    audited.details.via = 'api';
    audited.details.trash = (
      await service.remove(currentUser(request), request.params['*'])
    ).trashed;
    return reply.code(204).send();
  });

  app.get('/usage/*', { preHandler: guard, schema: path }, async (request, reply) => {
    return reply.send(await service.usage(currentUser(request), request.params['*']));
  });
}
