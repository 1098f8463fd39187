import * as z from 'zod/mini';
import { SharedMark } from './teams.ts';
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
  /** The entry's virtual path from the scope's root, with a leading slash. */
  path: z.string(),
  /** The last path segment. */
  name: z.string(),
  /** Size in bytes (of a folder: what the file system reports for the folder itself). */
  size: z.number(),
  /** The name's extension with its dot (`.txt`), "" if none. */
  extension: z.string(),
  /** Last modification, RFC 3339 with the server's offset. */
  modified: z.string(),
  /** Go's `os.FileMode` bits as a number (type bits included), as filebrowser sends them. */
  mode: z.number(),
  /** The entry is a folder (or a link to one). */
  isDir: z.boolean(),
  /** The entry is a symbolic link. */
  isSymlink: z.boolean(),
  /** One of FILE_TYPES: how the web app shows the entry. */
  type: z.string(),
  /** Paths of subtitle files found beside a video, for `GET /api/subtitle`. */
  subtitles: z.optional(z.array(z.string())),
  /** Cabinet's addition: the entry is or lies in a team folder or a share with people (docs/teams.md). */
  shared: z.optional(SharedMark),
});
export type ResourceItem = z.infer<typeof ResourceItem>;

/** Reply of GET /api/resources/{path}: a folder with items, or a file with optional content. */
export const Resource = z.extend(ResourceItem, {
  /** A text file's content (a file of type `text`, within the size limit). */
  content: z.optional(z.string()),
  /** Checksums asked for with `?checksum=`, by algorithm name, lowercase hex. */
  checksums: z.optional(z.record(z.string(), z.string())),
  /** Public share replies only: the download token for `/api/public/dl` of a protected share. */
  token: z.optional(z.string()),
  /**
   * Cabinet's addition, public share replies only: the visit ticket the page's `/api/public/dl`
   * requests carry (`?visit=`), so one visit counts one download.
   */
  visit: z.optional(z.string()),
  /** Public share of a file request: upload only (docs/sharing.md). */
  request: z.optional(z.boolean()),
  /** A folder's entries. */
  items: z.optional(z.array(ResourceItem)),
  /** How many of `items` are folders. */
  numDirs: z.optional(z.number()),
  /** How many of `items` are files. */
  numFiles: z.optional(z.number()),
  /** The user's sort order, which `items` already follow. */
  sorting: z.optional(Sorting),
});
export type Resource = z.infer<typeof Resource>;

/**
 * One element of the JSON array `GET /api/resources/recursive/{dir}` answers: every visible
 * descendant of the folder, flat, in no promised order (rules prune hidden subtrees).
 */
export const RecursiveItem = z.object({
  /** The entry's virtual path from the scope's root, with a leading slash. */
  path: z.string(),
  /** The last path segment. */
  name: z.string(),
  /** Size in bytes (folders: what the file system reports for the folder itself). */
  size: z.number(),
  /** Last modification, RFC 3339 with the server's offset. */
  modified: z.string(),
  /** The entry is a folder. */
  isDir: z.boolean(),
});
export type RecursiveItem = z.infer<typeof RecursiveItem>;

export const RecursiveListing = z.array(RecursiveItem);

/** Reply of `GET /api/usage/{path}`: the volume holding a folder; zeros for a file. */
export const Usage = z.object({
  /** The volume's size in bytes. */
  total: z.number(),
  /** Bytes in use on the volume. */
  used: z.number(),
});
export type Usage = z.infer<typeof Usage>;

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

/** Algorithms of `GET /api/resources/{path}?checksum=`. */
export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];
