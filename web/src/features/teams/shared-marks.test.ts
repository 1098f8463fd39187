import type { GrantAccess, SharedWithMe } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { isGrantTop, marksOf, withMarks } from './shared-marks.ts';

const view: GrantAccess = {
  create: false,
  rename: false,
  modify: false,
  delete: false,
  share: false,
};

function entry(path: string, isDir = true) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return {
    path,
    name,
    size: 0,
    extension: '',
    modified: '',
    mode: 0,
    isDir,
    isSymlink: false,
    type: '',
  };
}

const shared: SharedWithMe[] = [
  {
    kind: 'team',
    id: 1,
    path: '/Design (team)',
    name: 'Design (team)',
    isDir: true,
    access: view,
    expire: 0,
  },
  {
    kind: 'people',
    id: 7,
    path: '/Shared with me/report.pdf',
    name: 'report.pdf',
    isDir: false,
    owner: 'alice',
    access: view,
    expire: 0,
  },
];

describe('shared marks', () => {
  it('mark team folders, shared items and the folder holding shares with people', () => {
    const marks = marksOf(shared);
    expect(marks.get('/Design (team)')).toMatchObject({ kind: 'team', id: 1 });
    expect(marks.get('/Shared with me/report.pdf')).toMatchObject({
      kind: 'people',
      owner: 'alice',
    });
    expect(marks.get('/Shared with me')).toEqual({ kind: 'shared-with-me' });
  });

  it("leave the user's own entries unmarked and keep a mark the reply already has", () => {
    const own = entry('/Design');
    const replied = { ...entry('/Design (team)'), shared: { kind: 'team' as const, id: 9 } };
    const [a, b, c] = withMarks([own, replied, entry('/Shared with me/')], marksOf(shared));
    expect(a).toBe(own);
    expect(b!.shared).toEqual({ kind: 'team', id: 9 });
    expect(c!.shared).toEqual({ kind: 'shared-with-me' });
  });

  it('mark every entry of a shared folder with its grant, and a share inside "Shared with me" with its own', () => {
    const team = { kind: 'team' as const, id: 1 };
    const [plain, own] = withMarks(
      [entry('/Design (team)/a.txt', false), entry('/Design (team)/sub')],
      undefined,
      team,
    );
    expect(plain!.shared).toEqual(team);
    expect(own!.shared).toEqual(team);
    expect(isGrantTop(plain!)).toBe(false);
    const holder = { kind: 'shared-with-me' as const };
    const [report] = withMarks(
      [entry('/Shared with me/report.pdf', false)],
      marksOf(shared),
      holder,
    );
    expect(report!.shared).toMatchObject({ kind: 'people', owner: 'alice' });
    expect(isGrantTop(report!)).toBe(true);
    expect(isGrantTop({ path: '/Design (team)', shared: team })).toBe(true);
    expect(isGrantTop({ path: '/Design' })).toBe(false);
  });
});
