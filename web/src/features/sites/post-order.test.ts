import type { Post } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { orderPosts } from './post-order.ts';

function post(path: string, title: string, state: Post['state'], date: string | null): Post {
  return {
    path,
    filePath: `/blog/content/${path}`,
    section: 'posts',
    slug: path.replace(/^.*\/|\.md$/g, ''),
    title,
    date,
    draft: state === 'draft',
    state,
    scheduledAt: state === 'scheduled' ? date : null,
    failure: null,
  };
}

const posts = [
  post('posts/b.md', 'beta', 'published', '2026-01-02T10:00:00+01:00'),
  post('posts/a.md', 'Alpha', 'draft', null),
  post('posts/c.md', 'Éclair', 'scheduled', '2026-12-01T10:00:00+01:00'),
  post('posts/d.md', 'delta', 'published', '2026-01-03T09:00:00Z'),
];
const paths = (list: Post[]) => list.map((p) => p.path);

describe('orderPosts', () => {
  it('puts the newest first and the undated last', () => {
    expect(paths(orderPosts(posts, 'date', 'all', 'en'))).toEqual([
      'posts/c.md',
      'posts/d.md',
      'posts/b.md',
      'posts/a.md',
    ]);
  });

  it('sorts titles in the language order, ignoring case and accents', () => {
    expect(paths(orderPosts(posts, 'title', 'all', 'en'))).toEqual([
      'posts/a.md',
      'posts/b.md',
      'posts/d.md',
      'posts/c.md',
    ]);
  });

  it('keeps only the chosen state', () => {
    expect(paths(orderPosts(posts, 'date', 'published', 'en'))).toEqual([
      'posts/d.md',
      'posts/b.md',
    ]);
    expect(paths(orderPosts(posts, 'date', 'draft', 'en'))).toEqual(['posts/a.md']);
    expect(orderPosts([], 'title', 'scheduled', 'en')).toEqual([]);
  });

  it('does not reorder the list it is given', () => {
    const before = paths(posts);
    orderPosts(posts, 'title', 'all', 'en');
    expect(paths(posts)).toEqual(before);
  });
});
