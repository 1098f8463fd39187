import type { OpenApiDocument } from './document.ts';
import type { JsonSchema } from './json-schemas.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d232a}
h2{border-bottom:1px solid #ccd;margin-top:2.5rem}
details{border:1px solid #dde;border-radius:6px;margin:.4rem 0;padding:.3rem .7rem}
summary{cursor:pointer}
code,pre{font:13px/1.4 ui-monospace,monospace}
pre{background:#f4f5f7;padding:.5rem;overflow:auto;max-height:30rem}
.m{display:inline-block;min-width:4.5rem;font-weight:600;text-transform:uppercase}
.get{color:#1a6a2f}.post{color:#8a4b00}.put,.patch{color:#1d4f91}.delete{color:#a11}
.head,.options{color:#555}
table{border-collapse:collapse}td,th{border:1px solid #dde;padding:.2rem .5rem;text-align:left;vertical-align:top}
`;

function schemaText(schema: unknown): string {
  const ref = (schema as JsonSchema | undefined)?.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop()!;
    return `<a href="#schema-${escape(name)}">${escape(name)}</a>`;
  }
  return `<pre>${escape(JSON.stringify(schema, null, 2))}</pre>`;
}

function securityText(security: Record<string, string[]>[]): string {
  if (security.length === 0) return 'public';
  return security
    .map((s) => Object.keys(s)[0] ?? 'none (trusted address or open link)')
    .join(' · ');
}

function operationHtml(path: string, method: string, op: JsonSchema): string {
  const parts: string[] = [];
  if (op.description) parts.push(`<p>${escape(String(op.description))}</p>`);
  parts.push(
    `<p><b>Sign-in:</b> ${escape(securityText(op.security as Record<string, string[]>[]))}</p>`,
  );
  const parameters = (op.parameters ?? []) as JsonSchema[];
  if (parameters.length > 0) {
    const rows = parameters
      .map(
        (p) =>
          `<tr><td><code>${escape(String(p.name))}</code></td><td>${escape(String(p.in))}${p.required ? ', required' : ''}</td><td>${schemaText(p.schema)}${p.description ? `<br>${escape(String(p.description))}` : ''}</td></tr>`,
      )
      .join('');
    parts.push(`<table><tr><th>parameter</th><th>in</th><th>schema</th></tr>${rows}</table>`);
  }
  const body = op.requestBody as { content: Record<string, { schema?: unknown }> } | undefined;
  if (body) {
    for (const [type, media] of Object.entries(body.content)) {
      parts.push(
        `<p><b>Body</b> <code>${escape(type)}</code></p>${media.schema ? schemaText(media.schema) : ''}`,
      );
    }
  }
  const responses = op.responses as Record<
    string,
    { description: string; content?: Record<string, { schema?: unknown }> }
  >;
  const rows = Object.entries(responses)
    .map(([status, reply]) => {
      const media = Object.entries(reply.content ?? {})
        .map(
          ([type, m]) =>
            `<code>${escape(type)}</code>${m.schema && type === 'application/json' ? ` ${schemaText(m.schema)}` : ''}`,
        )
        .join(' ');
      return `<tr><td>${escape(status)}</td><td>${escape(reply.description)}</td><td>${media}</td></tr>`;
    })
    .join('');
  parts.push(`<table><tr><th>status</th><th>meaning</th><th>body</th></tr>${rows}</table>`);
  return `<details id="${escape(String(op.operationId))}"><summary><span class="m ${method}">${method}</span> <code>${escape(path)}</code> ${escape(String(op.summary))}</summary>${parts.join('\n')}</details>`;
}

/**
 * The document as one HTML page for people: operations by tag, then the schemas. Plain HTML and
 * CSS generated on the server, no script and nothing from the network.
 */
export function renderDocsPage(document: OpenApiDocument, jsonUrl: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags as string[])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const sections = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, ops]) => `<h2 id="tag-${escape(tag)}">${escape(tag)}</h2>\n${ops.join('\n')}`);
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) =>
      `<details id="schema-${escape(name)}"><summary><code>${escape(name)}</code></summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} API ${escape(document.info.version)}</title><style>${STYLE}</style></head>
<body><h1>${escape(document.info.title)} API <small>${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description)} The machine-readable document: <a href="${escape(jsonUrl)}">openapi.json</a> (OpenAPI 3.1).</p>
<p>${[...byTag.keys()]
    .sort()
    .map((t) => `<a href="#tag-${escape(t)}">${escape(t)}</a>`)
    .join(' · ')}</p>
${sections.join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas.join('\n')}
</body></html>
`;
}
