/**
 * The If header of RFC 4918 section 10.4: lists of conditions, each list optionally tagged with
 * the resource it is about. A condition is a state token (`<opaquelocktoken:…>`) or an entity tag
 * (`["…"]`), either negated with `Not`.
 */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

export interface IfList {
  /** The tagged resource (a URL or an absolute path); undefined means the request URL. */
  resource?: string;
  conditions: IfCondition[];
}

/** Parses an If header; undefined when it is malformed (the request is then a 400). */
export function parseIfHeader(header: string): IfList[] | undefined {
  const lists: IfList[] = [];
  let resource: string | undefined;
  let i = 0;
  const skipSpace = () => {
    while (i < header.length && /\s/.test(header[i]!)) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= header.length) break;
    const c = header[i]!;
    if (c === '<') {
      const end = header.indexOf('>', i);
      if (end < 0) return undefined;
      resource = header.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c !== '(') return undefined;
    i++;
    const conditions: IfCondition[] = [];
    for (;;) {
      skipSpace();
      if (i >= header.length) return undefined;
      if (header[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skipSpace();
      }
      if (header[i] === '<') {
        const end = header.indexOf('>', i);
        if (end < 0) return undefined;
        conditions.push({ not, token: header.slice(i + 1, end) });
        i = end + 1;
      } else if (header[i] === '[') {
        const end = header.indexOf(']', i);
        if (end < 0) return undefined;
        conditions.push({ not, etag: header.slice(i + 1, end) });
        i = end + 1;
      } else {
        return undefined;
      }
    }
    if (conditions.length === 0) return undefined;
    lists.push({ ...(resource !== undefined && { resource }), conditions });
  }
  return lists.length > 0 ? lists : undefined;
}

/** Every state token the header names without `Not`: the lock tokens the client submits. */
export function submittedTokens(lists: readonly IfList[] | undefined): string[] {
  if (!lists) return [];
  return lists.flatMap((list) =>
    list.conditions.filter((c) => !c.not && c.token !== undefined).map((c) => c.token!),
  );
}
