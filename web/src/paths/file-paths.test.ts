import { describe, expect, it } from 'vitest';
import {
  currentFolderOf,
  isSamePath,
  parentFolder,
  pathSegments,
  routeFromScopePath,
  scopePathFromRoute,
} from './file-paths.ts';

describe('scopePathFromRoute', () => {
  it.each([
    ['/files/', '/'],
    ['/files', '/'],
    ['/files/a/b/', '/a/b/'],
    ['/files/a%20b/c%23d.txt', '/a b/c#d.txt'],
    ['/files/%C3%BC%2F/', '/ü//'],
    ['/files/100%25/', '/100%/'],
    ['/files/bad%zz/', '/bad%zz/'],
  ])('%s → %s', (route, path) => {
    expect(scopePathFromRoute(route)).toBe(path);
  });
});

describe('routeFromScopePath', () => {
  it.each([
    ['/', true, '/files/'],
    ['/a b', true, '/files/a%20b/'],
    ['/a b/', true, '/files/a%20b/'],
    ['/x/c#d?.txt', false, '/files/x/c%23d%3F.txt'],
    ['100%', false, '/files/100%25'],
  ])('%s (folder: %s) → %s', (path, isDir, route) => {
    expect(routeFromScopePath(path, isDir)).toBe(route);
  });

  it('round-trips with scopePathFromRoute', () => {
    for (const path of ['/a/b c/', '/ü/ñ/%20/', '/q?x=1&y#z/']) {
      expect(scopePathFromRoute(routeFromScopePath(path, true))).toBe(path);
    }
  });
});

describe('path helpers', () => {
  it('compares paths ignoring a trailing slash', () => {
    expect(isSamePath('/a/b/', '/a/b')).toBe(true);
    expect(isSamePath('/', '/')).toBe(true);
    expect(isSamePath('/a/b', '/a/c')).toBe(false);
  });

  it('finds the parent folder', () => {
    expect(parentFolder('/a/b.txt')).toBe('/a/');
    expect(parentFolder('/a/b/')).toBe('/a/');
    expect(parentFolder('/a')).toBe('/');
    expect(parentFolder('/')).toBe('/');
  });

  it('splits segments', () => {
    expect(pathSegments('/a/b/')).toEqual(['a', 'b']);
    expect(pathSegments('/')).toEqual([]);
  });

  it('creates new entries in the folder on screen, else at the root', () => {
    expect(currentFolderOf('/files/a/b/')).toBe('/a/b/');
    expect(currentFolderOf('/files/a/b.txt')).toBe('/a/');
    expect(currentFolderOf('/settings/profile')).toBe('/');
  });
});
