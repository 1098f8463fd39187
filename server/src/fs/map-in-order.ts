/**
 * Maps `items` through `fn` with at most `limit` calls in flight, for file system lookups whose
 * round trips may overlap (a walk's lstats). Results come back in the items' order; when calls
 * fail, the first failure in that order is thrown once every call has settled, so the outcome
 * does not depend on which lookup the disk answered first.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const failures = new Map<number, unknown>();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failures.set(index, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return results;
}
