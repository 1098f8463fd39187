import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { handleError } from '../http/error-handler.ts';
import { basicCredentials } from '../http/basic-credentials.ts';
import { audit } from '../http/audit.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import { DAV_METHODS, type DavReply, type DavRequest } from '../services/dav/dav.service.ts';
import { davReplyOf } from '../services/dav/dav-errors.ts';
import type { FileToSend } from '../services/file-to-send.ts';

/** Largest XML body read (PROPFIND, PROPPATCH, LOCK). */
const XML_BODY_LIMIT = 1024 * 1024;
/** Methods whose body is XML the service reads; PUT streams its body, MKCOL must have none. */
const XML_METHODS = new Set(['PROPFIND', 'PROPPATCH', 'LOCK', 'MKCOL']);

/** Lets Fastify route the WebDAV methods (called on the root instance before routes register). */
export function allowDavMethods(app: FastifyInstance): void {
  for (const method of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK']) {
    app.addHttpMethod(method, { hasBody: true });
  }
}

/** Reads a small body whole; undefined when it is larger than the limit. */
async function readBody(request: FastifyRequest): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > XML_BODY_LIMIT) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends a WebDAV reply that is not a file: status, headers, then a status body or the XML. */
function sendDav(reply: FastifyReply, result: Exclude<DavReply, { file: FileToSend }>) {
  for (const [name, value] of Object.entries(result.headers ?? {})) void reply.header(name, value);
  if (result.reason !== undefined) return sendStatus(reply, result.status, result.reason);
  void reply.code(result.status);
  if (result.xml) {
    return reply.header('content-type', 'application/xml; charset=utf-8').send(result.xml);
  }
  return reply.send();
}

/**
 * /dav/ (docs/webdav.md): each user's scope over WebDAV, signed in with HTTP Basic (an app password,
 * or the account password where allowed). Bodies are not parsed by Fastify: PUT streams its body
 * into the file and the XML methods read theirs here, whatever their Content-Type.
 */
export async function davRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const base = `${ctx.config.baseURL}/dav`;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // Coded errors that reach here (a refused sign-in, a throttle) are answered as WebDAV answers
  // them (services/dav/dav-errors.ts): a 401 challenges, a 429 says when to try again.
  app.setErrorHandler((error: Error, request, reply) => {
    const result = davReplyOf(error);
    return result ? sendDav(reply, result) : handleError(error, request, reply);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = basicCredentials(request);
    if (!credentials) return sendDav(reply, davReplyOf(errors.unauthorized())!);
    const user = await services.appPasswords.authenticateBasic(
      credentials.username,
      credentials.password,
      request.ip,
    );
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0]!.slice('/dav'.length)) || '/';
    } catch {
      return reply.code(400).send('400 Bad Request\n');
    }
    let body = '';
    if (XML_METHODS.has(request.method)) {
      const read = await readBody(request);
      if (read === undefined) return reply.code(413).send('413 Payload Too Large\n');
      body = read;
    }
    const davRequest: DavRequest = {
      user,
      method: request.method,
      path,
      base,
      host: request.host,
      headers: {
        depth: header(request, 'depth'),
        destination: header(request, 'destination'),
        overwrite: header(request, 'overwrite'),
        if: header(request, 'if'),
        timeout: header(request, 'timeout'),
        lockToken: header(request, 'lock-token'),
      },
      body,
      ...(request.method === 'PUT' && { stream: request.raw }),
    };
    // Deletes are audited as the API's are (docs/audit.md), with the outcome of the reply.
    if (request.method === 'DELETE') {
      const audited = audit(request, 'file.delete', path);
      audited.actor = { id: user.id, username: user.username };
      audited.details.via = 'webdav';
    }
    const result = await services.dav.handle(davRequest);
    if ('file' in result) return sendFile(request, reply, result.file, clientGone(reply));
    if (result.replaced !== undefined) {
      // An Overwrite: T that replaced a destination: who replaced what with what (docs/audit.md).
      const audited = audit(request, 'file.replace', result.replaced);
      audited.actor = { id: user.id, username: user.username };
      audited.details = { via: 'webdav', method: request.method, from: path };
    }
    return sendDav(reply, result);
  };

  const methods = [...DAV_METHODS];
  app.route({ method: methods, url: '/dav', exposeHeadRoute: false, handler });
  app.route({ method: methods, url: '/dav/*', exposeHeadRoute: false, handler });
}
