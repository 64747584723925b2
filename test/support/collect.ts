/** Gathers an async iterable into an array, stopping after `max` items (which closes the iterator early). */
export async function collect<T>(iterable: AsyncIterable<T>, max = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  if (max <= 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}
