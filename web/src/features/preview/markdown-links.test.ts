import { describe, expect, it } from 'vitest';
import { isAbsoluteUrl, resolveScopePath } from './markdown-links.ts';

describe('Markdown links', () => {
  it.each([
    ['https://example.com/a.png', true],
    ['//cdn.example.com/a.png', true],
    ['mailto:someone@example.com', true],
    ['javascript:alert(1)', true],
    ['pic.png', false],
    ['./pic.png', false],
    ['../pic.png', false],
    ['/pic.png', false],
  ])('tells whether %s is absolute (%s)', (url, absolute) => {
    expect(isAbsoluteUrl(url)).toBe(absolute);
  });

  it.each([
    ['/docs/', 'pic.png', '/docs/pic.png'],
    ['/docs/', './img/a%20b.png', '/docs/img/a b.png'],
    ['/docs/', 'img/a b.png', '/docs/img/a b.png'],
    ['/docs/deep/', '../pic.png', '/docs/pic.png'],
    ['/docs/', '../../../../etc/passwd', '/etc/passwd'],
    ['/', '/top.png', '/top.png'],
    ['/docs', 'pic.png', '/docs/pic.png'],
  ])('resolves %s + %s to %s', (folder, reference, path) => {
    expect(resolveScopePath(folder, reference)).toBe(path);
  });
});
