import type { Readable } from 'node:stream';

/** Headers of a creation request, as received. */
export interface CreateRequest {
  uploadLength: string | string[] | undefined;
  deferLength: string | string[] | undefined;
  metadata: string | string[] | undefined;
  /** `override=true` in the query: replace an existing file (needs the modify permission). */
  override: boolean;
  contentType: string | string[] | undefined;
  contentLength: string | string[] | undefined;
  /** The request body; read only for creation-with-upload (offset content type). */
  body: Readable;
}

/** Headers of a PATCH, as received. */
export interface AppendRequest {
  uploadOffset: string | string[] | undefined;
  contentType: string | string[] | undefined;
  contentLength: string | string[] | undefined;
  body: Readable;
}

/** What the route needs to answer about an upload. */
export interface UploadState {
  /** Canonical virtual path of the target (for Location). */
  path: string;
  offset: number;
  length: number;
  metadata: string;
  /** Milliseconds since the epoch (Upload-Expires). */
  expiresAt: number;
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
