import type { ReadableFile } from '../streams/file-copy.ts';

/**
 * A file a service hands to the HTTP layer to send (http/file-reply.ts): its identity for caching
 * plus a way to open (part of) it.
 */
export interface FileToSend {
  size: number;
  mtime: Date;
  contentType: string;
  /** `Content-Disposition` value (see contentDisposition). */
  disposition: string;
  /** Opens the content for positional reads (a `FileHandle`, or `bufferFile` for memory). */
  open(): Promise<ReadableFile & { close(): Promise<void> }>;
  /** Named pipes and other special files: headers only, empty body (as the reference does). */
  isSpecial?: boolean;
}

/**
 * `attachment` or `inline` with the name in RFC 5987 form (`filename*=utf-8''…`), which carries
 * any Unicode name and cannot be broken out of with quotes or semicolons.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename*=utf-8''${encoded}`;
}
