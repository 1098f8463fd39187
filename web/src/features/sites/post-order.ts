import type { Post, PostState } from '@cabinet/protocol';

export type PostSort = 'date' | 'title';
export type PostFilter = PostState | 'all';

/** When a post counts for sorting by date: its pending schedule, else its date; undated last. */
function timeOf(post: Post): number {
  const when = post.scheduledAt ?? post.date;
  const ms = when ? Date.parse(when) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * The posts the list shows: those in `filter`'s state, newest first by date (undated at the
 * end) or by title in the interface language's order; ties keep the path order.
 */
export function orderPosts(
  posts: readonly Post[],
  sort: PostSort,
  filter: PostFilter,
  locale: string,
): Post[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const byPath = (a: Post, b: Post) => collator.compare(a.path, b.path);
  return posts
    .filter((post) => filter === 'all' || post.state === filter)
    .sort((a, b) =>
      sort === 'title'
        ? collator.compare(a.title, b.title) || byPath(a, b)
        : timeOf(b) - timeOf(a) || byPath(a, b),
    );
}
