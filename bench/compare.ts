// Interleaved load runs and their ratios. These machines are noisy, and their speed drifts
// over minutes, so a ratio is taken between runs made next to each other in time: each round
// runs every workload once (the order rotating), each round gives one ratio, and the median
// of the rounds is reported with its range.
import { load } from "./load";
import type { LoadResult, Workload } from "./workload";

export interface Comparison<K extends string> {
  /** Each workload's runs combined: mean rates and latencies, the worst p99, summed counts. */
  mean: Record<K, LoadResult>;
  /** Each workload's per-round p99 latencies, in ms, in round order. */
  p99s: Record<K, number[]>;
  /** Per-round requests/s of `a` over `b`. */
  ratio(a: K, b: K): { median: number; min: number; max: number };
  /** With a `cpu` meter: each workload's CPU per 2xx answer, in µs, by the meter's groups of processes. */
  cpuPerRequest: Record<K, Record<string, number>>;
}

const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function combine(rs: LoadResult[]): LoadResult {
  return {
    rps: avg(rs.map((r) => r.rps)),
    p50: avg(rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    mean: avg(rs.map((r) => r.mean)),
    ok: rs.reduce((s, r) => s + r.ok, 0),
    errors: rs.reduce((s, r) => s + r.errors, 0),
  };
}

/**
 * `settleMs`: a pause after each run, for workloads whose requests still in flight when the load
 * stops keep a server busy (the Argon2id hashes a sign-up run leaves queued: docs/performance.md,
 * "Comparing two builds"): without it, whichever workload follows such a one in the rotation is
 * measured against that leftover work.
 */
export async function compare<K extends string>(
  workloads: Record<K, Workload>,
  rounds: number,
  { settleMs = 0, cpu }: { settleMs?: number; cpu?: () => Record<string, number> } = {},
): Promise<Comparison<K>> {
  const settle = () => new Promise((r) => setTimeout(r, settleMs));
  const names = Object.keys(workloads) as K[];
  const runs = Object.fromEntries(names.map((n) => [n, [] as LoadResult[]])) as Record<K, LoadResult[]>;
  const spent = Object.fromEntries(names.map((n) => [n, {} as Record<string, number>])) as Record<K, Record<string, number>>;
  for (const n of names) {
    await load({ ...workloads[n], seconds: 2 }); // warm-up: JIT, connection setup
    await settle();
  }
  for (let i = 0; i < rounds; i++) {
    const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    for (const n of order) {
      const before = cpu?.();
      runs[n].push(await load(workloads[n]));
      // Counted before the settle: what a run leaves in flight is not charged to the next one, nor to this one.
      const after = cpu?.();
      const sum: Record<string, number> = spent[n];
      for (const g in after) sum[g] = (sum[g] ?? 0) + after[g]! - before![g]!;
      await settle();
    }
  }
  const answered = (n: K) => runs[n].reduce((s, r) => s + r.ok, 0);
  return {
    mean: Object.fromEntries(names.map((n) => [n, combine(runs[n])])) as Record<K, LoadResult>,
    p99s: Object.fromEntries(names.map((n) => [n, runs[n].map((r) => r.p99)])) as Record<K, number[]>,
    ratio(a, b) {
      const rs = runs[a].map((r, i) => r.rps / runs[b][i]!.rps).sort((x, y) => x - y);
      const mid = rs.length / 2;
      const median = rs.length % 2 ? rs[Math.floor(mid)]! : (rs[mid - 1]! + rs[mid]!) / 2;
      return { median, min: rs[0]!, max: rs[rs.length - 1]! };
    },
    cpuPerRequest: Object.fromEntries(
      names.map((n) => [n, Object.fromEntries(Object.entries(spent[n]).map(([g, s]) => [g, (s / answered(n)) * 1e6]))]),
    ) as Record<K, Record<string, number>>,
  };
}

export const fmtRatio = (r: { median: number; min: number; max: number }) =>
  `${r.median.toFixed(2)} (rounds ${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
