import type { Readable } from 'node:stream';
import type { TusUploadState } from '@cabinet/protocol';

/**
 * A creation request (POST), decoded by the route (http/tus-codec.ts). The header decoders that
 * can fail are functions the service calls in its own order of checks, so a malformed header
 * answers 400 only after the permission and path checks have passed.
 */
export interface CreateRequest {
  /** Upload-Length; throws 400 when it is missing, deferred or not a byte count. */
  uploadLength(): number;
  /** Upload-Metadata as sent, trimmed ('' when absent); throws 400 when malformed. */
  metadata(): string;
  /** `override=true` in the query: replace an existing file (needs the modify permission). */
  override: boolean;
  /** The body carries data (creation-with-upload): its type is the offset content type. */
  withData: boolean;
  /** Content-Length when declared and valid; undefined for chunked bodies. */
  contentLength: number | undefined;
  /** The request body; read only for creation-with-upload. */
  body: Readable;
}

/** A PATCH, decoded by the route (see CreateRequest). */
export interface AppendRequest {
  /** The body's type is the offset content type (anything else answers 415). */
  offsetContentType: boolean;
  /** Upload-Offset; throws 400 when it is missing or not a byte count. */
  uploadOffset(): number;
  /** Content-Length when declared and valid; undefined for chunked bodies. */
  contentLength: number | undefined;
  body: Readable;
}

/** What the route needs to answer about an upload: its tus headers, and where it goes. */
export interface UploadState extends TusUploadState {
  /** Canonical virtual path of the target (for Location). */
  path: string;
  /** Set when this request completed an override upload over a file (audited as a replace). */
  replaced?: string;
}

/** A PATCH that could not be applied; the route answers with the status and this offset. */
export class AppendRejected extends Error {
  constructor(
    readonly status: 409 | 413,
    readonly offset: number,
    /** The body was not (fully) read: the connection should close after the reply. */
    readonly bodyLeftUnread: boolean,
  ) {
    super(status === 409 ? 'offset mismatch' : 'upload too large');
  }
}
