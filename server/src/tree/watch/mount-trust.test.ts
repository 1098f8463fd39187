import { describe, expect, it } from 'vitest';
import { parseMountInfo, watchTrusted } from './mount-trust.ts';

describe('mount trust', () => {
  it('reads mount points and types from mountinfo, escapes decoded', () => {
    const text = [
      '27 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw',
      '42 27 0:39 / /srv/my\\040files rw,nosuid - fuse /tmp/src rw,user_id=0',
      '43 27 0:40 / /mnt/nas rw,relatime shared:7 master:2 - nfs4 nas:/export rw,vers=4.2',
      '',
    ].join('\n');
    expect(parseMountInfo(text)).toEqual([
      { mountPoint: '/', type: 'ext4' },
      { mountPoint: '/srv/my files', type: 'fuse' },
      { mountPoint: '/mnt/nas', type: 'nfs4' },
    ]);
  });

  it('trusts local file systems only', () => {
    for (const type of ['ext4', 'xfs', 'btrfs', 'tmpfs', 'zfs'])
      expect(watchTrusted(type)).toBe(true);
    for (const type of [
      'nfs',
      'nfs4',
      'cifs',
      'smb3',
      'ceph',
      'fuse',
      'fuseblk',
      'fuse.bindfs',
      'fuse.sshfs',
      'overlay',
      '9p',
      'something-new',
    ]) {
      expect(watchTrusted(type)).toBe(false);
    }
  });
});
