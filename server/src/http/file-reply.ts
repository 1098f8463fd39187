import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { applyApiHeaders } from './api-headers.ts';
import { ChunkPool, copyFileRange } from '../streams/file-copy.ts';
import { contentDisposition, type FileToSend } from '../services/file-to-send.ts';

/**
 * The policy on every downloaded or previewed file: it may show itself (styles, its own images and
 * media) but never run script or reach anything, and `sandbox` gives it an opaque origin, so an
 * HTML or SVG file opened from Cabinet cannot act as the user in Cabinet's origin (filebrowser
 * #2570, an XSS through inline downloads).
 */
export const DOWNLOAD_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'";

/** A strong validator from size and modification time (as nginx makes them). */
export function fileEtag(size: number, mtime: Date): string {
  return `"${Math.floor(mtime.getTime()).toString(16)}-${size.toString(16)}"`;
}

/**
 * Sends a file with HTTP caching semantics: ETag and Last-Modified, 304 for If-None-Match /
 * If-Modified-Since, single byte ranges (206, suffix ranges, 416 naming the size) honouring
 * If-Range. Several ranges are answered with the whole file (allowed by RFC 9110), which avoids
 * multipart bodies no client of Cabinet asks for.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: FileToSend,
  signal: AbortSignal,
  /**
   * The policy instead of DOWNLOAD_CSP: a served site's (http/site-csp.ts), sent alone, without
   * the API's policy, which would forbid the site's own stylesheets and scripts.
   */
  csp: string = DOWNLOAD_CSP,
): Promise<FastifyReply> {
  const etag = fileEtag(file.size, file.mtime);
  const lastModified = file.mtime.toUTCString();
  void reply
    .header('content-type', file.contentType)
    .header('content-disposition', file.disposition)
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private')
    .header('etag', etag)
    .header('last-modified', lastModified)
    .header('accept-ranges', 'bytes');

  if (file.isSpecial) return reply.header('content-length', 0).send('');
  if (isNotModified(request, etag, file.mtime)) {
    return reply.code(304).send();
  }

  const range = request.headers.range;
  if (range && file.size > 0 && rangeStillValid(request, etag, file.mtime)) {
    const ranges = parseRange(file.size, range, { combine: true });
    if (ranges === -1) {
      reply.removeHeader('content-disposition');
      return reply
        .code(416)
        .header('content-range', `bytes */${file.size}`)
        .header('content-type', 'text/plain; charset=utf-8')
        .send('416 Requested Range Not Satisfiable\n');
    }
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0]!;
      void reply.header('content-range', `bytes ${start}-${end}/${file.size}`);
      return sendBody(reply, 206, file, start, end - start + 1, signal);
    }
  }
  return sendBody(reply, 200, file, 0, file.size, signal);
}

/** Read buffers per download: one is read while another is sent. */
const BODY_BUFFERS = 3;
const BODY_BUFFER_BYTES = 1024 * 1024;

/**
 * Sends `length` bytes from `start` as the body. The bytes go from the file into the socket
 * through a few reused buffers (see ChunkPool), so Fastify hands the response over once the
 * headers it collected are written.
 */
async function sendBody(
  reply: FastifyReply,
  status: number,
  file: FileToSend,
  start: number,
  length: number,
  signal: AbortSignal,
): Promise<FastifyReply> {
  const content = await file.open();
  void reply.header('content-length', length);
  await writeResponse(reply, status, async (output) => {
    try {
      const pool = new ChunkPool(BODY_BUFFERS, Math.max(1, Math.min(BODY_BUFFER_BYTES, length)));
      const copy = { pool, signal, sinkReleasesOnCallback: true };
      const { copied: sent } = await copyFileRange(content, start, length, output, copy);
      // A file that shrank since its stat cannot fill the announced length: cut the connection
      // so the client sees a short download instead of waiting for the rest.
      if (sent < length) output.destroy();
      else output.end();
    } catch {
      output.destroy(); // the client went away, or the read failed mid-body
    } finally {
      await content.close();
    }
  });
  return reply;
}

/**
 * Writes the response without Fastify's payload handling: the API's headers and the ones the
 * route set go out with `status`, then `write` fills (and ends) the body. Used where the body is
 * copied from a file through reused buffers.
 */
export async function writeResponse(
  reply: FastifyReply,
  status: number,
  write: (output: Writable) => Promise<void>,
): Promise<void> {
  applyApiHeaders(reply);
  reply.hijack();
  reply.raw.writeHead(status, reply.getHeaders() as OutgoingHttpHeaders);
  await write(reply.raw);
}

/** What an archive reply needs (an ArchiveDownload of archive/archive-selection.ts). */
export interface ArchiveToSend {
  fileName: string;
  format: { contentType: string };
  writeTo(output: Writable): Promise<void>;
}

/**
 * Streams an archive as an attachment with the download policy (signed-in and public downloads):
 * it is written straight into the response, see ArchiveDownload.writeTo.
 */
export async function sendArchive(
  reply: FastifyReply,
  archive: ArchiveToSend,
): Promise<FastifyReply> {
  void reply
    .header('content-type', archive.format.contentType)
    .header('content-disposition', contentDisposition('attachment', archive.fileName))
    .header('content-security-policy', DOWNLOAD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private');
  await writeResponse(reply, 200, (output) => archive.writeTo(output));
  return reply;
}

/**
 * Streams a body made while it is sent (a video remux) with the download policy: no length, no
 * ranges; a client that leaves destroys `body`, which stops its producer.
 */
export async function sendStream(
  reply: FastifyReply,
  contentType: string,
  body: Readable,
): Promise<FastifyReply> {
  void reply
    .header('content-type', contentType)
    .header('content-security-policy', DOWNLOAD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  await writeResponse(reply, 200, (output) =>
    pipeline(body, output).catch(() => {
      // The client left or the producer failed mid-way: the response simply ends.
      if (!output.destroyed) output.destroy();
    }),
  );
  return reply;
}

/** Whole seconds: HTTP dates carry no fractions, so comparisons must drop them too. */
function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * RFC 9110 section 13.2.2: If-None-Match (weak comparison) wins over If-Modified-Since. A request
 * `Cache-Control: no-cache` is for caches on the way, not for the origin, so it does not matter here
 * (fetch() adds it to every conditional request).
 */
function isNotModified(request: FastifyRequest, etag: string, mtime: Date): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return (
      noneMatch.trim() === '*' || noneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
    );
  }
  const modifiedSince = request.headers['if-modified-since'];
  if (!modifiedSince) return false;
  const since = Date.parse(modifiedSince);
  return !Number.isNaN(since) && seconds(mtime) <= since;
}

/** If-Range: a range applies only while the file is still the version the client holds. */
function rangeStillValid(request: FastifyRequest, etag: string, mtime: Date): boolean {
  const header = request.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const since = Date.parse(ifRange);
  return !Number.isNaN(since) && seconds(mtime) <= since;
}
