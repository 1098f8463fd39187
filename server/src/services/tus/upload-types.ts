import type { Readable } from 'node:stream';
import type { TusUploadState } from '@cabinet/protocol';

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

/** What the route needs to answer about an upload: its tus headers, and where it goes. */
export interface UploadState extends TusUploadState {
  /** Canonical virtual path of the target (for Location). */
  path: string;
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
