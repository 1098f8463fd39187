import * as z from 'zod/mini';
import { Sorting } from './user.ts';

/** Kinds of file the server reports in `type` ("" for folders). */
export const FILE_TYPES = [
  '',
  'video',
  'audio',
  'image',
  'pdf',
  'text',
  'textImmutable',
  'blob',
  'invalid_link',
] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** One entry of a folder listing. */
export const ResourceItem = z.object({
  path: z.string(),
  name: z.string(),
  size: z.number(),
  extension: z.string(),
  modified: z.string(),
  mode: z.number(),
  isDir: z.boolean(),
  isSymlink: z.boolean(),
  type: z.string(),
  subtitles: z.optional(z.array(z.string())),
});
export type ResourceItem = z.infer<typeof ResourceItem>;

/** Reply of GET /api/resources/{path}: a folder with items, or a file with optional content. */
export const Resource = z.extend(ResourceItem, {
  content: z.optional(z.string()),
  checksums: z.optional(z.record(z.string(), z.string())),
  token: z.optional(z.string()),
  /** Public share of a file request: upload only (docs/sharing.md). */
  request: z.optional(z.boolean()),
  items: z.optional(z.array(ResourceItem)),
  numDirs: z.optional(z.number()),
  numFiles: z.optional(z.number()),
  sorting: z.optional(Sorting),
});
export type Resource = z.infer<typeof Resource>;

/** Archive formats of GET /api/raw with `algo=` and their file extensions. */
export const ARCHIVE_FORMATS = {
  zip: '.zip',
  tar: '.tar',
  targz: '.tar.gz',
  tarbz2: '.tar.bz2',
  tarxz: '.tar.xz',
  tarlz4: '.tar.lz4',
  tarsz: '.tar.sz',
  tarbr: '.tar.br',
  tarzst: '.tar.zst',
} as const;
export type ArchiveFormat = keyof typeof ARCHIVE_FORMATS;

export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];
