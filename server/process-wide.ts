/**
 * One value per process, made on first use. Next.js compiles a server module once for each
 * layer that uses it (route handlers, server components, server-side rendering,
 * instrumentation), and each compiled copy has module-level variables of its own: a cache held
 * in one would be filled and bounded once per layer, and the metrics (registered from
 * instrumentation) would read an empty copy of it; a rate limiter would count each layer's
 * requests apart. State that must be one per process lives here instead, under `name`.
 */
export function processWide<T>(name: string, make: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`hallmark.${name}`);
  let value = slots[key];
  if (value === undefined) {
    value = make();
    slots[key] = value;
  }
  return value;
}
