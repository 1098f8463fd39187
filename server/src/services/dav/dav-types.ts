// What the /dav routes and the WebDAV service exchange: one request in, one reply out.
import { Readable } from 'node:stream';
import type { CredentialUser } from '../app-passwords.service.ts';
import type { FileToSend } from '../file-to-send.ts';

/** One WebDAV request as the route hands it over. */
export interface DavRequest {
  user: CredentialUser;
  method: string;
  /** The decoded path below /dav/ (`/docs/a.txt`, `/` for the root). */
  path: string;
  /** The href prefix of this server's WebDAV root: base URL plus `/dav`. */
  base: string;
  /** The Host header, to tell a Destination on this server from one elsewhere. */
  host: string;
  headers: {
    depth?: string;
    destination?: string;
    overwrite?: string;
    if?: string;
    timeout?: string;
    lockToken?: string;
  };
  /** The XML body (PROPFIND, PROPPATCH, LOCK), "" when none; MKCOL refuses any body. */
  body: string;
  /** PUT: the request body. */
  stream?: Readable;
}

/** What the route sends: a status with optional headers and XML, or a file. */
export type DavReply =
  | {
      status: number;
      headers?: Record<string, string>;
      xml?: string;
      /** The reason of a refusal the client should read (a quota's 507 names usage and quota). */
      reason?: string;
      /** The destination an Overwrite: T replaced (recorded in the audit log as `file.replace`). */
      replaced?: string;
    }
  | { status: 200; file: FileToSend };

export const DAV_METHODS = [
  'OPTIONS',
  'PROPFIND',
  'PROPPATCH',
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
] as const;
