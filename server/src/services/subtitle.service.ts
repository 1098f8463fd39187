import { Readable } from 'node:stream';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import { ScopedFs } from '../fs/scoped-fs.ts';
import { contentDisposition } from './file-to-send.ts';
import { textLines } from '../preview/subtitles/text-lines.ts';
import { assToVtt, srtToVtt } from '../preview/subtitles/to-webvtt.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { canDownload } from './permissions.ts';

/** What GET /api/subtitle answers: 202 without download permission, else WebVTT to stream. */
export type SubtitleResult =
  { kind: 'accepted' } | { kind: 'vtt'; stream: Readable; disposition: string };

const SUBTITLE_EXTENSION = /\.(vtt|srt|ass|ssa)$/i;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface SubtitleDeps {
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * Subtitles for the video player: SRT, ASS and SSA converted to WebVTT as they are
 * read, WebVTT passed through. Permission first (202), then rules and existence (403/404);
 * folders and other extensions are 400.
 */
export class SubtitleService {
  constructor(private readonly ctx: SubtitleDeps) {}

  async subtitle(user: UserRecord, virtual: string, inline: boolean): Promise<SubtitleResult> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    const extension = SUBTITLE_EXTENSION.exec(target.name)?.[1]?.toLowerCase();
    if (!extension) throw errors.badRequest('not a subtitle file');
    const { stream: source } = await fs.openRead(target);
    let stream: Readable = source;
    if (extension === 'srt') stream = Readable.from(srtToVtt(textLines(source)));
    else if (extension === 'ass' || extension === 'ssa') {
      stream = Readable.from(assToVtt(textLines(source)));
    }
    if (stream !== source) stream.once('close', () => source.destroy());
    return {
      kind: 'vtt',
      stream,
      disposition: contentDisposition(inline ? 'inline' : 'attachment', target.name),
    };
  }
}
