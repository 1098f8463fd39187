import type { SiteGenerator } from '@cabinet/protocol';

/**
 * The starter a new site may get: one archetype, a minimal layout and an empty `content/posts/`,
 * so a first user has a working site in one click. The archetype is valid for Hugo and Cabinet.
 */
const ARCHETYPE = `---
title: "{{ replace .Name "-" " " | title }}"
date: {{ .Date }}
draft: true
author: ""
---

Write your post here.
`;

const BUILTIN_FILES: Record<string, string> = {
  'layouts/partials/head.liquid': `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.6}</style>
<link rel="alternate" type="application/atom+xml" href="{{ site.baseURL }}atom.xml">
`,
  'layouts/post.liquid': `<!doctype html>
<html lang="en">
<head>
{% render 'partials/head', site: site %}
<title>{{ page.title | escape }} · {{ site.title | escape }}</title>
</head>
<body>
<p><a href="{{ site.baseURL }}">{{ site.title | escape }}</a></p>
<article>
<h1>{{ page.title | escape }}</h1>
{% if page.date != "" %}<p><time datetime="{{ page.date }}">{{ page.date | date: "%Y-%m-%d" }}</time></p>{% endif %}
{{ page.content }}
</article>
</body>
</html>
`,
  'layouts/index.liquid': `<!doctype html>
<html lang="en">
<head>
{% render 'partials/head', site: site %}
<title>{{ site.title | escape }}</title>
</head>
<body>
<h1>{{ site.title | escape }}</h1>
<ul>
{% for post in posts %}<li><a href="{{ site.baseURL }}{{ post.url }}">{{ post.title | escape }}</a>{% if post.date != "" %} <time datetime="{{ post.date }}">{{ post.date | date: "%Y-%m-%d" }}</time>{% endif %}</li>
{% endfor %}</ul>
</body>
</html>
`,
};

const HUGO_FILES: Record<string, string> = {
  'hugo.toml': `baseURL = "{{BASE}}"
title = "{{TITLE}}"
disableKinds = ["taxonomy", "term"]
`,
  'layouts/_default/baseof.html': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}</title>
</head>
<body>
{{ block "main" . }}{{ end }}
</body>
</html>
`,
  'layouts/_default/single.html': `{{ define "main" }}
<p><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a></p>
<article>
<h1>{{ .Title }}</h1>
<p><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "2006-01-02" }}</time></p>
{{ .Content }}
</article>
{{ end }}
`,
  'layouts/_default/list.html': `{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}</ul>
{{ end }}
`,
  'layouts/index.html': `{{ define "main" }}
<h1>{{ site.Title }}</h1>
<ul>
{{ range where site.RegularPages "Type" "posts" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2006-01-02" }}</time></li>
{{ end }}</ul>
{{ end }}
`,
};

/**
 * The starter's files, relative to the site folder. `baseURL` is where the site is served
 * (`<base-url>/sites/<name>/`), so the links of a Hugo site built by hand stay on it too.
 */
export function starterFiles(
  generator: SiteGenerator,
  title: string,
  baseURL: string,
): Map<string, string> {
  const files = generator === 'hugo' ? HUGO_FILES : BUILTIN_FILES;
  const out = new Map<string, string>([['archetypes/default.md', ARCHETYPE]]);
  const quoted = (value: string) => value.replace(/["\\]/g, '\\$&');
  for (const [name, text] of Object.entries(files)) {
    out.set(name, text.replace('{{TITLE}}', quoted(title)).replace('{{BASE}}', quoted(baseURL)));
  }
  return out;
}
