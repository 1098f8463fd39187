/**
 * Intl formatters made once per kind, language and options: making one costs far more than
 * formatting with it (tens of microseconds), and a listing formats a size and two dates for every
 * row it renders, again whenever the rows re-render.
 */
const made = new Map<string, unknown>();

/** `new Kind(locale, options)`, made on first use and kept. */
export function formatter<Options, T>(
  Kind: new (locale: string, options: Options) => T,
  locale: string,
  options: Options,
): T {
  const key = `${Kind.name} ${locale} ${JSON.stringify(options)}`;
  let kept = made.get(key) as T | undefined;
  if (kept === undefined) {
    kept = new Kind(locale, options);
    made.set(key, kept);
  }
  return kept;
}
