import type { EntryStat } from '../fs/entry-stat.ts';
import mime from 'mime-types';

/** Largest file reported as text (and whose content is sent for editing). */
export const TEXT_LIMIT_BYTES = 10 * 1024 * 1024;

/** Bytes read for sniffing, as the reference does. */
export const SNIFF_BYTES = 512;

/** Kinds of file before the permission-dependent text/textImmutable split. */
export type DetectedType = 'video' | 'audio' | 'image' | 'pdf' | 'text' | 'blob';

/**
 * Names whose registered MIME type misleads a file manager, or that the registry does not know:
 * source code (`.rs` is an XML format in the registry; `.go` and `.py` are not registered at all),
 * configuration and subtitle formats that are plain text. Known names are typed without opening
 * the file, which keeps listings of source trees fast.
 */
const OVERRIDES: Record<string, string> = {
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.py': 'text/x-python',
  '.rb': 'text/x-ruby',
  '.kt': 'text/x-kotlin',
  '.kts': 'text/x-kotlin',
  '.swift': 'text/x-swift',
  '.scala': 'text/x-scala',
  '.dart': 'text/x-dart',
  '.lua': 'text/x-lua',
  '.pl': 'text/x-perl',
  '.tsx': 'text/tsx',
  '.mts': 'text/typescript',
  '.cts': 'text/typescript',
  '.vue': 'text/x-vue',
  '.svelte': 'text/x-svelte',
  '.gradle': 'text/x-groovy',
  '.cfg': 'text/plain',
  '.env': 'text/plain',
  '.srt': 'text/plain',
  '.ass': 'text/plain',
  '.ssa': 'text/plain',
};

/** Application types whose content is text (edited in the browser like text/*). */
const TEXTUAL_APPLICATION = new Set([
  'application/json',
  'application/javascript',
  'application/xml',
  'application/x-sh',
  'application/x-csh',
  'application/x-httpd-php',
  'application/sql',
  'application/toml',
  'application/x-yaml',
  'application/yaml',
  'application/ld+json',
  'application/x-subrip',
  'application/x-tex',
  'application/x-latex',
  'application/typescript',
  'application/x-perl',
  'application/x-python',
  'application/x-ruby',
  'application/graphql',
  'application/x-ndjson',
  'application/manifest+json',
]);

/** The extension as the API reports it: text after the last dot, dot included, or `""`. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
}

/** MIME type by file name, or undefined when the name says nothing. */
export function mimeOf(name: string): string | undefined {
  const ext = extensionOf(name).toLowerCase();
  let found = mimeByExtension.get(ext);
  if (found === undefined) {
    found = OVERRIDES[ext] ?? (ext ? mime.lookup(ext) || '' : '');
    mimeByExtension.set(ext, found);
  }
  return found || undefined;
}

/** Lookups by extension, memoised: listings type every entry. */
const mimeByExtension = new Map<string, string>();

function isTextMime(type: string): boolean {
  return (
    type.startsWith('text/') ||
    TEXTUAL_APPLICATION.has(type) ||
    type.endsWith('+json') ||
    (type.endsWith('+xml') && !type.startsWith('image/'))
  );
}

/** What the name alone decides; undefined when the first bytes are needed. */
function typeByMime(type: string | undefined): DetectedType | 'textual' | undefined {
  if (!type) return undefined;
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('image/')) return 'image';
  if (type.endsWith('pdf')) return 'pdf';
  if (isTextMime(type)) return 'textual';
  return undefined;
}

/**
 * True when a listing should read the first bytes of a file of this name to type it (files of at
 * most TEXT_LIMIT_BYTES only): the name has no registered type at all. `.ts` is sniffed to tell
 * MPEG transport streams from TypeScript. A registered non-text type (`.zip`, `.docx`, `.bin`) is
 * trusted in listings, as every file manager does: opening one file per entry made big folders
 * slow, and the file's own GET still sniffs (docs/files-api.md, "Types").
 */
export function sniffsByName(name: string): boolean {
  if (extensionOf(name).toLowerCase() === '.ts') return true;
  return mimeOf(name) === undefined;
}

/**
 * "Binary" as the reference defines it: a code point at or below 0x08, or bytes that are not
 * UTF-8 (a multi-byte sequence cut off by the end of the sample does not count).
 */
export function looksBinary(head: Uint8Array): boolean {
  for (const byte of head) if (byte <= 0x08) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/**
 * Types a file by name and, when given, its first bytes: named pipes and other
 * specials are blobs; video, audio, image and pdf by MIME; text when the MIME is textual or the
 * bytes are not binary, and the file is at most 10 MiB; blob otherwise.
 */
export function detectType(name: string, stat: EntryStat, head?: Uint8Array): DetectedType {
  if (!stat.isFile()) return 'blob';
  const ext = extensionOf(name).toLowerCase();
  if (ext === '.ts' && head && head.length > 0) {
    // MPEG-TS packets start with the sync byte 0x47 every 188 bytes.
    if (head[0] === 0x47 && (head.length <= 188 || head[188] === 0x47)) return 'video';
    return !looksBinary(head) && stat.size <= TEXT_LIMIT_BYTES ? 'text' : 'blob';
  }
  const byMime = typeByMime(mimeOf(name));
  if (byMime && byMime !== 'textual') return byMime;
  if (stat.size > TEXT_LIMIT_BYTES) return 'blob';
  if (byMime === 'textual') return 'text';
  if (head === undefined) return mimeOf(name) ? 'blob' : 'text';
  return looksBinary(head) ? 'blob' : 'text';
}
