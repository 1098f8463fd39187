import { readFile, statfs } from 'node:fs/promises';
import path from 'node:path';

/** One mount the served root crosses, and whether its folder watches report every change. */
export interface MountReport {
  /** Where it is mounted, relative to the served root: `/` for the mount that holds the root. */
  path: string;
  /** The file system type (`/proc/self/mountinfo`, else named from `statfs`'s f_type). */
  type: string;
  /** Whether inotify on it sees every change, whoever makes it. */
  trusted: boolean;
}

/**
 * File systems whose changes all pass through this host's kernel, so an inotify watch sees each
 * one, whichever program or container makes it.
 */
const LOCAL_TYPES = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'tmpfs',
  'ramfs',
  'zfs',
  'f2fs',
  'bcachefs',
  'jfs',
  'reiserfs',
  'nilfs2',
  'vfat',
  'exfat',
  'ntfs3',
  'hfsplus',
  'squashfs',
  'iso9660',
  'erofs',
]);

/**
 * `statfs` magic numbers (linux/magic.h) of the types Cabinet names when mountinfo cannot be read:
 * the local ones above and the network, FUSE and layered ones whose watches miss changes.
 */
const MAGIC_TYPES = new Map<number, string>([
  [0xef53, 'ext4'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x01021994, 'tmpfs'],
  [0x858458f6, 'ramfs'],
  [0x2fc12fc1, 'zfs'],
  [0xf2f52010, 'f2fs'],
  [0xca451a4e, 'bcachefs'],
  [0x6969, 'nfs'],
  [0x517b, 'smbfs'],
  [0xff534d42, 'cifs'],
  [0xfe534d42, 'smb2'],
  [0x00c36400, 'ceph'],
  [0x65735546, 'fuse'],
  [0x794c7630, 'overlay'],
  [0x01021997, '9p'],
  [0x5346414f, 'afs'],
]);

/**
 * Whether watches on a file system of this type can be trusted: only local types Cabinet knows.
 * NFS, SMB/CIFS, CephFS and other network file systems report only this host's changes; FUSE
 * (bindfs, sshfs, …) only those made through this very mount; overlay not those made to its
 * layers; 9p not the host's. A type Cabinet does not know is not trusted either: listings are then
 * read each time, which is slower but never wrong.
 */
export function watchTrusted(type: string): boolean {
  return LOCAL_TYPES.has(type);
}

/** One line of /proc/self/mountinfo: where it is mounted and its type. */
interface MountLine {
  mountPoint: string;
  type: string;
}

/** mountinfo escapes space, tab, newline and backslash in paths as `\ooo` octal. */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_all, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

/** Parses /proc/self/mountinfo (proc(5)): field 5 is the mount point, the first after `-` the type. */
export function parseMountInfo(text: string): MountLine[] {
  const mounts: MountLine[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    if (fields.length < 5 || dash < 0 || dash + 1 >= fields.length) continue;
    mounts.push({ mountPoint: unescapeMount(fields[4]!), type: fields[dash + 1]! });
  }
  return mounts;
}

function isUnder(real: string, folder: string): boolean {
  return real === folder || folder === '/' || real.startsWith(folder + path.sep);
}

/**
 * Which parts of the served tree can trust their folder watches (docs/search.md, "Any file
 * system"): found once at start from /proc/self/mountinfo and `statfs` of each mount the root
 * crosses (the one holding the root and every one mounted below it). Mounts made under the root
 * after the start are judged by the mount that held their mount point then.
 */
export class MountTrust {
  private constructor(
    private readonly realRoot: string,
    /** Mount points (real paths) with their reports, longest first. */
    private readonly mounts: readonly { real: string; report: MountReport }[],
  ) {}

  /** Reads the mounts the root crosses; a mount whose type cannot be told at all is not trusted. */
  static async probe(realRoot: string): Promise<MountTrust> {
    const lines = await readFile('/proc/self/mountinfo', 'utf8')
      .then(parseMountInfo)
      .catch(() => [] as MountLine[]);
    // Later lines are mounted over earlier ones at the same point: the last one is what is seen.
    const byPoint = new Map<string, string>();
    for (const line of lines) byPoint.set(line.mountPoint, line.type);
    let holder = '/';
    for (const point of byPoint.keys()) {
      if (isUnder(realRoot, point) && point.length > holder.length) holder = point;
    }
    const crossed = [...byPoint.keys()].filter(
      (point) => point === holder || (point !== realRoot && isUnder(point, realRoot)),
    );
    if (crossed.length === 0) crossed.push(holder);
    const mounts = await Promise.all(
      crossed.map(async (point) => {
        // The holder is asked about the root itself: it may be all Cabinet may read of it.
        const asked = point === holder ? realRoot : point;
        const magic = await statfs(asked)
          .then((info) => MAGIC_TYPES.get(info.type))
          .catch(() => undefined);
        const listed = byPoint.get(point);
        // Either source naming an untrusted type wins: a FUSE mount may list as `fuse.x` or `fuse`.
        const type = listed ?? magic ?? 'unknown';
        const trusted = watchTrusted(type) && (magic === undefined || watchTrusted(magic));
        const relative = point === holder ? '' : path.relative(realRoot, point);
        return {
          real: point === holder ? realRoot : point,
          report: { path: '/' + relative.split(path.sep).join('/'), type, trusted },
        };
      }),
    );
    mounts.sort((a, b) => b.real.length - a.real.length);
    return new MountTrust(realRoot, mounts);
  }

  /** Every mount the root crosses, the root's own first. */
  get reports(): MountReport[] {
    return [...this.mounts].reverse().map((mount) => mount.report);
  }

  /** The mounts whose watches cannot be trusted. */
  get untrusted(): MountReport[] {
    return this.reports.filter((report) => !report.trusted);
  }

  /**
   * Whether folder watches can be trusted at a real path: a change there by anyone raises an
   * event. False on the mounts above; outside the root, the root's own mount decides.
   */
  trusted(real: string): boolean {
    for (const mount of this.mounts) {
      if (isUnder(real, mount.real)) return mount.report.trusted;
    }
    return this.mounts.at(-1)?.report.trusted ?? false;
  }

  get root(): string {
    return this.realRoot;
  }
}
