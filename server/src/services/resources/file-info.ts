import type { ResourceItem } from '@cabinet/protocol';
import { extensionOf } from '../../file-kinds/file-type.ts';
import { FILE_TYPE } from '../../fs/entry-stat.ts';
import type { EntryStat } from '../../fs/scoped-fs.ts';

/** Go's os.FileMode type bits, as filebrowser clients receive them. */
const GO_MODE = {
  dir: 2 ** 31,
  symlink: 2 ** 27,
  device: 2 ** 26,
  namedPipe: 2 ** 25,
  socket: 2 ** 24,
  setuid: 2 ** 23,
  setgid: 2 ** 22,
  charDevice: 2 ** 21,
  sticky: 2 ** 20,
};

const { S_IFMT, S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK } = FILE_TYPE;

/** Go's type bits for each st_mode file type. */
const GO_TYPE = new Map([
  [S_IFDIR, GO_MODE.dir],
  [S_IFLNK, GO_MODE.symlink],
  [S_IFIFO, GO_MODE.namedPipe],
  [S_IFSOCK, GO_MODE.socket],
  [S_IFCHR, GO_MODE.device + GO_MODE.charDevice],
  [S_IFBLK, GO_MODE.device],
]);

/** An st_mode as Go's os.FileMode number: permission bits plus Go's type bits. */
export function goFileMode(mode: number): number {
  let go = (mode & 0o777) + (GO_TYPE.get(mode & S_IFMT) ?? 0);
  if (mode & 0o4000) go += GO_MODE.setuid;
  if (mode & 0o2000) go += GO_MODE.setgid;
  if (mode & 0o1000) go += GO_MODE.sticky;
  return go;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Caches for formatTime: listings format one time per entry, mostly of a few days and zones. */
const offsetByHour = new Map<number, number>();
const dateByDay = new Map<number, string>();
const CACHE_LIMIT = 10_000;

/** The server's UTC offset in minutes at an instant (it changes at most on the hour). */
function offsetAt(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    offset = -new Date(hour * HOUR_MS).getTimezoneOffset();
    if (offsetByHour.size >= CACHE_LIMIT) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

/** `YYYY-MM-DDT` of a day counted from the epoch (wall clock already shifted). */
function datePart(day: number): string {
  let text = dateByDay.get(day);
  if (text === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    text = iso.slice(0, iso.indexOf('T') + 1);
    if (dateByDay.size >= CACHE_LIMIT) dateByDay.clear();
    dateByDay.set(day, text);
  }
  return text;
}

/**
 * RFC 3339 with fractional seconds (trailing zeros trimmed) in the server's local offset, `Z` for
 * UTC, like Go's time.Time JSON.
 */
export function formatTime(ms: number): string {
  const whole = Math.floor(ms);
  const offset = offsetAt(whole);
  const local = whole + offset * 60_000;
  const day = Math.floor(local / DAY_MS);
  const seconds = Math.floor((local - day * DAY_MS) / 1000);
  // Digits from a table and no regular expression: a big listing formats one time per entry.
  const clock =
    TWO_DIGITS[Math.floor(seconds / 3600)]! +
    ':' +
    TWO_DIGITS[Math.floor(seconds / 60) % 60]! +
    ':' +
    TWO_DIGITS[seconds % 60]!;
  // Sub-second part from the floored time, so times before 1970 keep theirs too.
  const micros = Math.min(
    999_999,
    Math.round((local - day * DAY_MS - seconds * 1000 + ms - whole) * 1000),
  );
  const zone =
    offset === 0
      ? 'Z'
      : `${offset > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return datePart(day) + clock + fractionOf(micros) + zone;
}

/** `00` to `99`. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => pad(i));

/** `.` and the microseconds' six digits without trailing zeros; '' for none. */
function fractionOf(micros: number): string {
  if (micros <= 0) return '';
  let digits = 6;
  while (micros % 10 === 0) {
    micros /= 10;
    digits--;
  }
  return '.' + String(micros).padStart(digits, '0');
}

/** The ETag filebrowser sends after a write: `"<hex mtime ns><hex size>"`. */
export function etagOf(stat: EntryStat): string {
  const nanos = BigInt(Math.round(stat.mtimeMs * 1000)) * 1000n;
  return `"${nanos.toString(16)}${stat.size.toString(16)}"`;
}

/** The common FileInfo fields of one file, folder or link. */
export function fileInfo(input: {
  path: string;
  name: string;
  /** Target stat; for a broken link the link's own stat. */
  stat: EntryStat;
  isSymlink: boolean;
  type: string;
}): ResourceItem {
  const { stat } = input;
  return {
    path: input.path,
    name: input.name,
    size: stat.size,
    extension: extensionOf(input.name),
    modified: formatTime(stat.mtimeMs),
    mode: goFileMode(stat.mode),
    isDir: stat.isDirectory(),
    isSymlink: input.isSymlink,
    type: input.type,
  };
}
