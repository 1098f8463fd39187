/** What a new post's archetype placeholders are filled with. */
export interface ArchetypeValues {
  title: string;
  slug: string;
  section: string;
  /** ISO 8601. */
  date: string;
  author: string;
}

/**
 * Fills `{{ … }}` placeholders: a small subset of Hugo's archetype syntax, so one archetype file
 * works in Hugo and in Cabinet. A placeholder is a value (`.Title`, `.Name`, `.Slug`,
 * `.File.ContentBaseName`, `.Date`, `.Author`, `.Section`, `.Type`, or a quoted string),
 * optionally `replace <value> "old" "new"`, then any of the pipes `| title`, `| lower`,
 * `| upper`, `| humanize`, `| urlize`. Anything else becomes an empty string (docs/sites.md).
 */
export function fillArchetype(template: string, values: ArchetypeValues): string {
  return template.replace(/\{\{-?\s*([\s\S]*?)\s*-?\}\}/g, (_match, expression: string) =>
    evaluate(expression, values),
  );
}

function valueOf(token: string, values: ArchetypeValues): string | undefined {
  switch (token) {
    case '.Title':
      return values.title;
    case '.Name':
    case '.Slug':
    case '.File.ContentBaseName':
    case '.File.BaseFileName':
      return values.slug;
    case '.Date':
      return values.date;
    case '.Author':
    case '.Site.Params.author':
      return values.author;
    case '.Section':
    case '.Type':
      return values.section;
  }
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(token);
  return quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : undefined;
}

function tokens(text: string): string[] {
  return text.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
}

function evaluate(expression: string, values: ArchetypeValues): string {
  const [head = '', ...pipes] = expression.split('|').map((part) => part.trim());
  const words = tokens(head);
  let result: string | undefined;
  if (words[0] === 'replace' && words.length === 4) {
    const [subject, from, to] = words.slice(1).map((w) => valueOf(w, values));
    result =
      subject !== undefined && from !== undefined && to !== undefined && from !== ''
        ? subject.split(from).join(to)
        : undefined;
  } else if (words.length === 1) {
    result = valueOf(words[0]!, values);
  }
  if (result === undefined) return '';
  for (const pipe of pipes) result = applyPipe(pipe, result);
  return result;
}

function applyPipe(pipe: string, value: string): string {
  switch (pipe) {
    case 'title':
      return value.replace(/(^|\s)(\p{L})/gu, (_m, space: string, letter: string) => {
        return space + letter.toUpperCase();
      });
    case 'lower':
      return value.toLowerCase();
    case 'upper':
      return value.toUpperCase();
    case 'humanize': {
      const spaced = value.replace(/[-_]+/g, ' ');
      return spaced.charAt(0).toUpperCase() + spaced.slice(1);
    }
    case 'urlize':
      return value.toLowerCase().replace(/\s+/g, '-');
    default:
      return value;
  }
}
