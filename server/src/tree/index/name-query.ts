import { foldName } from './fold.ts';
import { KIND_AUDIO, KIND_IMAGE, KIND_VIDEO, extensionOf, kindOfName } from './entry-kind.ts';

/** A parsed search: what a name must hold and which files qualify. */
export interface NameQuery {
  /** OR-ed substrings of the base name, case-folded unless `caseSensitive`; empty = every name. */
  terms: string[];
  caseSensitive: boolean;
  /** Media kinds (`type:image|audio|music|video`); with `extensions`, OR-ed. Files only. */
  kinds: number[];
  /** `type:<word>` for any other word: the extension `.<word>`, exactly, case-sensitive. */
  extensions: string[];
}

const KIND_WORDS: Record<string, number> = {
  image: KIND_IMAGE,
  audio: KIND_AUDIO,
  music: KIND_AUDIO,
  video: KIND_VIDEO,
};

/**
 * Parses the reference grammar: `type:<word>` tokens (word characters, any number), `case:sensitive`
 * and `case:insensitive`, then the rest trimmed: wrapped in double quotes it is one literal term,
 * otherwise space-separated terms. Unlike the reference, the empty terms that double spaces leave
 * are dropped instead of matching everything.
 */
export function parseQuery(text: string): NameQuery {
  const kinds = new Set<number>();
  const extensions = new Set<string>();
  let rest = text.replace(/type:(\w+)/g, (_match, word: string) => {
    const kind = KIND_WORDS[word];
    if (kind !== undefined) kinds.add(kind);
    else extensions.add(`.${word}`);
    return '';
  });
  const caseSensitive = rest.includes('case:sensitive');
  rest = rest.replaceAll('case:sensitive', '').replaceAll('case:insensitive', '').trim();
  let terms: string[];
  if (rest.length >= 2 && rest.startsWith('"') && rest.endsWith('"')) terms = [rest.slice(1, -1)];
  else terms = rest.split(' ').filter((term) => term !== '');
  if (!caseSensitive) terms = terms.map(foldName);
  return {
    terms: [...new Set(terms)],
    caseSensitive,
    kinds: [...kinds],
    extensions: [...extensions],
  };
}

/** True when the query filters on types. */
export function hasTypeFilter(query: NameQuery): boolean {
  return query.kinds.length > 0 || query.extensions.length > 0;
}

/**
 * Whether a file passes the type filters (always true without any). The name is asked for only
 * when an extension filter needs it: the index knows each entry's kind without decoding its name.
 */
export function matchesType(
  query: NameQuery,
  name: () => string,
  isDir: boolean,
  kind?: number,
): boolean {
  if (!hasTypeFilter(query)) return true;
  if (isDir) return false;
  if (query.kinds.length > 0 && query.kinds.includes(kind ?? kindOfName(name()))) return true;
  return query.extensions.length > 0 && query.extensions.includes(extensionOf(name()));
}

/** Whether a base name matches the terms (the walk fallback's test; the index scans instead). */
export function matchesTerms(query: NameQuery, name: string): boolean {
  if (query.terms.length === 0) return true;
  const subject = query.caseSensitive ? name : foldName(name);
  return query.terms.some((term) => subject.includes(term));
}
