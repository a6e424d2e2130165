/** Calls `fn` on every item, `workers` at a time, in the items' order of starting; resolves when all are done. */
export async function forEachConcurrently<T>(items: readonly T[], workers: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i]!);
    }),
  );
}
