import type { FastifyBaseLogger } from 'fastify';
import type { RawDownloadQuery } from '@cabinet/protocol';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { archiveSelection, type ArchiveDownload } from '../archive/archive-selection.ts';
import { ScopedFs, type Resolved, type Stats } from '../fs/scoped-fs.ts';
import { contentDisposition, type FileToSend } from './file-to-send.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { inlineContentType } from './raw/inline-type.ts';
import { canDownload } from './permissions.ts';

/** What GET /api/raw answers: 202 without download permission, a file, or an archive stream. */
export type RawDownload =
  | { kind: 'accepted' }
  | { kind: 'file'; file: FileToSend }
  | ({ kind: 'archive' } & ArchiveDownload);

export interface RawQuery {
  files?: string;
  algo?: string;
  inline?: string;
}

/**
 * Describes one file for sendFile: attachment as application/octet-stream by default; inline with
 * a content type from the name (active content as text/plain, see inline-type.ts). Content is
 * opened through ScopedFs when the reply needs it, with the range asked for.
 */
export async function fileDownload(
  fs: ScopedFs,
  target: Resolved & { stat: Stats },
  inline: boolean,
): Promise<FileToSend> {
  const isSpecial = !target.stat.isFile();
  const head = inline && !isSpecial ? await fs.readHead(target, 512) : Buffer.alloc(0);
  return {
    size: isSpecial ? 0 : target.stat.size,
    mtime: target.stat.mtime,
    contentType: inline ? inlineContentType(target.name, head) : 'application/octet-stream',
    disposition: contentDisposition(inline ? 'inline' : 'attachment', target.name),
    isSpecial,
    // sendFile reads no more than the size announced in Content-Length, even if the file grew.
    open: () => fs.openFile(target),
  };
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface RawDeps {
  files: FileRoot;
  settings: SettingsRepo;
}

/** Downloads: one file with ranges, or a folder / selection as a streamed archive. */
export class RawService {
  constructor(private readonly ctx: RawDeps) {}

  /**
   * Answers a download. Permission first (202, as the reference), then ScopedFs decides on rules,
   * scope and existence (403/404). `signal` stops an archive when the client goes away.
   */
  async download(
    user: UserRecord,
    virtual: string,
    query: RawDownloadQuery,
    signal: AbortSignal,
    log: FastifyBaseLogger,
  ): Promise<RawDownload> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (!target.stat.isDirectory()) {
      return { kind: 'file', file: await fileDownload(fs, target, query.inline) };
    }
    const archive = await archiveSelection(fs, target, {
      algo: query.algo,
      files: query.files,
      signal,
      log,
    });
    return { kind: 'archive', ...archive };
  }
}
