/**
 * A value read again in the background once older than `maxAgeMs`, and at once on `fresh()`.
 * It is kept as the value itself, never as a promise: a promise made while a request is handled
 * holds that request's async context (its URL among it) for as long as it is kept
 * (e2e/api/tracer-leak.test.ts), and a cache keeps its promise for good. A promise lives only
 * while its read is under way.
 */
export interface KeptValue<T> {
  /** The value (read first if there is none yet), read again in the background once stale. */
  get(): Promise<T>;
  /** Reads it now; the next get() answers what this read. */
  fresh(): Promise<T>;
}

export function keptValue<T>(load: () => Promise<T>, maxAgeMs: number): KeptValue<T> {
  const state = { value: undefined as T | undefined, has: false, at: 0, pending: undefined as Promise<T> | undefined };
  const fresh = (): Promise<T> => {
    const read = load().then((value) => {
      state.value = value;
      state.has = true;
      state.at = Date.now();
      return value;
    });
    state.pending = read;
    const done = () => {
      if (state.pending === read) state.pending = undefined;
    };
    read.then(done, done);
    return read;
  };
  return {
    get() {
      if (!state.has) return state.pending ?? fresh();
      if (Date.now() - state.at > maxAgeMs && !state.pending) fresh().catch(() => {}); // the next get() sees it
      return Promise.resolve(state.value as T);
    },
    fresh,
  };
}
