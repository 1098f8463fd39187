import { errors } from '../errors.ts';

/**
 * The tus 1.0 wire codec: versions, extensions, header parsing and formatting. The route decodes
 * requests and encodes replies with it, so the tus service never sees a header. Pure functions, no
 * I/O, so every rule of https://tus.io/protocols/resumable-upload is unit-tested in one place.
 */

/** The only protocol version Cabinet speaks. */
export const TUS_VERSION = '1.0.0';

/** Extensions implemented by the tus service (advertised by OPTIONS as Tus-Extension). */
export const TUS_EXTENSIONS = [
  'creation',
  'creation-with-upload',
  'termination',
  'expiration',
] as const;

/** The only content type a PATCH (or a POST carrying data) may use. */
export const OFFSET_CONTENT_TYPE = 'application/offset+octet-stream';

/** Header names, lower-case as Node exposes request headers. */
export const TUS_HEADERS = {
  resumable: 'tus-resumable',
  version: 'tus-version',
  extension: 'tus-extension',
  uploadLength: 'upload-length',
  uploadOffset: 'upload-offset',
  uploadMetadata: 'upload-metadata',
  uploadExpires: 'upload-expires',
  uploadDeferLength: 'upload-defer-length',
  methodOverride: 'x-http-method-override',
} as const;

/** Every tus header a browser client must be allowed to read from replies. */
export const TUS_EXPOSED_HEADERS = [
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
  'Location',
];

/**
 * True when the client's Tus-Resumable header names a version Cabinet supports. A missing header is
 * accepted: filebrowser never required it, and its scripted clients (curl) do not send it.
 */
export function isSupportedVersion(header: string | string[] | undefined): boolean {
  if (header === undefined) return true;
  return typeof header === 'string' && header.trim() === TUS_VERSION;
}

/** Largest length or offset accepted: beyond it JavaScript numbers lose byte precision. */
const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** Parses a header holding a non-negative decimal byte count; undefined when not a valid one. */
function parseByteCount(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string') return undefined;
  const text = header.trim();
  // Digits only: "+5", "-1", "1e3", "0x10" and " " are all refused, as the protocol demands.
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_BYTES ? value : undefined;
}

/**
 * Upload-Length of a creation request. Missing, negative or non-numeric values answer 400; a
 * deferred length is refused because `creation-defer-length` is not offered.
 */
export function parseUploadLength(
  header: string | string[] | undefined,
  deferHeader?: string | string[],
): number {
  if (header === undefined) {
    if (deferHeader !== undefined) throw errors.badRequest('deferred upload length not supported');
    throw errors.badRequest('missing Upload-Length');
  }
  const value = parseByteCount(header);
  if (value === undefined) throw errors.badRequest('invalid Upload-Length');
  return value;
}

/** Upload-Offset of a PATCH: a non-negative integer, else 400. */
export function parseUploadOffset(header: string | string[] | undefined): number {
  if (header === undefined) throw errors.badRequest('missing Upload-Offset');
  const value = parseByteCount(header);
  if (value === undefined) throw errors.badRequest('invalid Upload-Offset');
  return value;
}

/** Content-Length of a request when declared and valid; undefined for chunked bodies. */
export function parseContentLength(header: string | string[] | undefined): number | undefined {
  return parseByteCount(header);
}

/**
 * True for exactly `application/offset+octet-stream` (media types compare case-insensitively;
 * parameters are not allowed by the protocol).
 */
export function isOffsetContentType(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && header.trim().toLowerCase() === OFFSET_CONTENT_TYPE;
}

/** Keys are visible ASCII without spaces or commas; values are standard Base64 (maybe empty). */
const METADATA_KEY = /^[\x21-\x2b\x2d-\x7e]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Validates Upload-Metadata ("key base64value,key2,…") and returns the decoded pairs. Invalid
 * syntax, an empty or duplicate key, or a value that is not Base64 answers 400.
 */
export function parseUploadMetadata(header: string | string[] | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  if (header === undefined) return pairs;
  if (typeof header !== 'string') throw errors.badRequest('invalid Upload-Metadata');
  if (header.trim() === '') return pairs;
  for (const item of header.split(',')) {
    const parts = item.trim().split(' ');
    const [key, value = ''] = parts;
    if (parts.length > 2 || !key || !METADATA_KEY.test(key) || !BASE64.test(value)) {
      throw errors.badRequest('invalid Upload-Metadata');
    }
    if (pairs.has(key)) throw errors.badRequest('duplicate Upload-Metadata key');
    pairs.set(key, Buffer.from(value, 'base64').toString('utf8'));
  }
  return pairs;
}

/** Upload-Expires value: an RFC 9110 HTTP date, e.g. "Wed, 25 Jun 2014 16:00:00 GMT". */
export function formatExpires(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

/**
 * The Location of an upload: `<baseURL>/api/tus<escaped path>` without the query, as filebrowser
 * answers. Each segment is percent-encoded so names with spaces, `#`, `?` or `%` survive.
 */
export function uploadLocation(baseURL: string, virtualPath: string): string {
  const escaped = virtualPath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${baseURL}/api/tus${escaped}`;
}

/**
 * The method a POST stands for: tus clients behind proxies that drop PATCH or DELETE send POST with
 * X-HTTP-Method-Override, which the core protocol says the server must honour.
 */
export function effectiveMethod(
  method: string,
  override: string | string[] | undefined,
): 'POST' | 'PATCH' | 'DELETE' | 'HEAD' | 'GET' | 'OPTIONS' | undefined {
  const wanted = (
    method === 'POST' && typeof override === 'string' ? override.trim() : method
  ).toUpperCase();
  switch (wanted) {
    case 'POST':
    case 'PATCH':
    case 'DELETE':
    case 'HEAD':
    case 'GET':
    case 'OPTIONS':
      return wanted;
    default:
      return undefined;
  }
}
