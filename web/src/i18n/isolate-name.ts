/**
 * Wraps a user-provided name put into a sentence in Unicode isolates (FIRST STRONG ISOLATE …
 * POP DIRECTIONAL ISOLATE), the plain-text form of `<bdi>`: an Arabic name in an English sentence,
 * or a Latin one in an Arabic sentence, keeps its own direction and does not reorder the words
 * around it.
 */
export function isolateName(name: string): string {
  return `\u2068${name}\u2069`;
}
