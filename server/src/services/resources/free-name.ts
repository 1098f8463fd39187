import { virtualBaseName, virtualParent, joinVirtual } from '../../fs/canonical-path.ts';
import { extensionOf } from '../../file-kinds/file-type.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import { errors } from '../../errors.ts';

/** Attempts before giving up on finding a free name. */
const MAX_ATTEMPTS = 10_000;

/**
 * The first free `base(N).ext` (N = 1, 2, …) next to a taken path, for "rename on clash" in
 * uploads, copies and moves. Names the user may not see count as taken, so nothing is overwritten.
 */
export async function freeName(fs: ScopedFs, taken: string): Promise<string> {
  const name = virtualBaseName(taken);
  const ext = extensionOf(name);
  const base = ext && ext !== name ? name.slice(0, -ext.length) : name;
  const suffix = ext === name ? '' : ext;
  const parent = virtualParent(taken);
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const candidate = joinVirtual(parent, `${base}(${n})${suffix}`);
    try {
      const resolved = await fs.resolve(candidate);
      if (!resolved.stat && !resolved.isSymlink) return candidate;
    } catch {
      // Denied or unreachable: treat as taken and try the next number.
    }
  }
  throw errors.conflict();
}
