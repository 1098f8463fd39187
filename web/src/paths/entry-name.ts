/** Why a trimmed name cannot be used, as an i18n key; null when it can. */
export function nameProblem(name: string): string | null {
  if (!name) return 'dialogs.nameRequired';
  if (name === '.' || name === '..' || name.includes('/') || name.includes('\\')) {
    return 'dialogs.nameInvalid';
  }
  return null;
}

/**
 * The extension as the server sees it: the text from the last dot, dot included ("a.tar.gz" →
 * ".gz"); a name that is all extension (".bashrc") or has no dot has none.
 */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

/** How much of a name to pre-select for renaming: everything but a file's extension. */
export function baseNameLength(name: string, isDir: boolean): number {
  return isDir ? name.length : name.length - extensionOf(name).length;
}

/**
 * The name the server picks for "rename on clash": the first
 * "base(N).ext", N = 1, 2, …, that is not among `taken`.
 */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const ext = extensionOf(name);
  const base = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = `${base}(${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
