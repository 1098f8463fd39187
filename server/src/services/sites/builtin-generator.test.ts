import { describe, expect, it } from 'vitest';
import { fillArchetype } from './archetype-fill.ts';
import { renderBuiltin, type SiteSource } from './builtin-generator.ts';

const POSTS: Record<string, string> = {
  'posts/older.md':
    '---\ntitle: Older & wiser\ndate: 2024-01-02T10:00:00+01:00\n---\nFirst *post*.\n',
  'posts/newer.md': '+++\ntitle = "Newer"\ndate = 2024-03-04T05:06:07Z\n+++\n# Hi\n',
  'posts/draft.md': '---\ntitle: Draft\ndraft: true\ndate: 2024-01-01T00:00:00Z\n---\nno\n',
  'posts/future.md': '---\ntitle: Future\ndate: 2030-01-01T00:00:00Z\n---\nlater\n',
};

const LAYOUTS = new Map([
  [
    'post.liquid',
    '<h1>{{ page.title | escape }}</h1>{% render "partials/foot", site: site %}\n{{ page.content }}',
  ],
  [
    'index.liquid',
    '{% for post in posts %}{{ post.date }} {{ site.baseURL }}{{ post.url }}\n{% endfor %}',
  ],
  ['partials/foot.liquid', '<p>{{ site.title }}</p>'],
]);

const source: SiteSource = {
  layouts: () => Promise.resolve(LAYOUTS),
  posts: () => Promise.resolve(Object.keys(POSTS).sort()),
  post: (path) => Promise.resolve(POSTS[path]!),
};

const BUILD = {
  name: 'blog',
  title: 'Blog',
  baseURL: '/sites/blog/',
  now: Date.parse('2025-01-01T00:00:00Z'),
  includeUnpublished: false,
};

describe('the built-in generator', () => {
  it('renders a known site byte for byte: pages, an index newest first, an Atom feed', async () => {
    const out = await renderBuiltin(source, BUILD);
    expect([...out.keys()]).toEqual([
      'atom.xml',
      'index.html',
      'posts/newer/index.html',
      'posts/older/index.html',
    ]);
    expect(out.get('posts/older/index.html')).toBe(
      '<h1>Older &amp; wiser</h1><p>Blog</p>\n<p>First <em>post</em>.</p>\n',
    );
    expect(out.get('posts/newer/index.html')).toBe('<h1>Newer</h1><p>Blog</p>\n<h1>Hi</h1>\n');
    expect(out.get('index.html')).toBe(
      '2024-03-04T05:06:07.000Z /sites/blog/posts/newer/\n' +
        '2024-01-02T10:00:00+01:00 /sites/blog/posts/older/\n',
    );
    expect(out.get('atom.xml')).toBe(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Blog</title>
  <link href="/sites/blog/"/>
  <id>/sites/blog/</id>
  <updated>2024-03-04T05:06:07.000Z</updated>
  <entry>
    <title>Newer</title>
    <link href="/sites/blog/posts/newer/"/>
    <id>/sites/blog/posts/newer/</id>
    <updated>2024-03-04T05:06:07.000Z</updated>
    <content type="html">&lt;h1&gt;Hi&lt;/h1&gt;
</content>
  </entry>
  <entry>
    <title>Older &amp; wiser</title>
    <link href="/sites/blog/posts/older/"/>
    <id>/sites/blog/posts/older/</id>
    <updated>2024-01-02T09:00:00.000Z</updated>
    <content type="html">&lt;p&gt;First &lt;em&gt;post&lt;/em&gt;.&lt;/p&gt;
</content>
  </entry>
</feed>
`);
    // The same input twice gives the same bytes.
    expect(await renderBuiltin(source, BUILD)).toEqual(out);
  });

  it('renders drafts, future posts and unsaved text only for previews', async () => {
    const out = await renderBuiltin(source, {
      ...BUILD,
      includeUnpublished: true,
      override: { path: 'posts/draft.md', content: '---\ntitle: Edited\n---\nnew\n' },
    });
    expect(out.get('posts/future/index.html')).toContain('Future');
    expect(out.get('posts/draft/index.html')).toContain('<h1>Edited</h1>');
  });

  it('cannot include a template that is not under layouts/', async () => {
    const escaping: SiteSource = {
      ...source,
      layouts: () =>
        Promise.resolve(new Map([['index.liquid', '{% include "../../etc/passwd" %}']])),
    };
    await expect(renderBuiltin(escaping, BUILD)).rejects.toThrow(/passwd/);
  });
});

describe('archetype placeholders', () => {
  const values = {
    title: 'My title',
    slug: 'my-first-post',
    section: 'posts',
    date: '2025-01-01T00:00:00Z',
    author: 'ann',
  };
  it('fill the Hugo subset Cabinet supports', () => {
    expect(
      fillArchetype(
        'a: {{ replace .Name "-" " " | title }}\nb: {{ .Date }}\nc: {{ .Author }} {{ .Section | upper }}\n' +
          'd: {{ .Title }} {{ .File.ContentBaseName | humanize }}\ne: {{ .Unknown }}|{{ now }}',
        values,
      ),
    ).toBe(
      'a: My First Post\nb: 2025-01-01T00:00:00Z\nc: ann POSTS\nd: My title My first post\ne: |',
    );
  });
});
