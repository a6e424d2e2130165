// `npm run bench -- --only node-cache`: the memory the tree-node cache (server/log/node-cache.ts)
// holds at its bound, against the same nodes in a Map from `level:index` strings to their
// Uint8Arrays (the plain way to keep them) as the baseline. Each fills in a process of its own,
// the baseline keeping a Uint8Array of 32 bytes a node, as the store hands them over; the figures
// are what the filled structure adds after a full GC: resident memory, and what the process holds
// within it (V8's heap and the ArrayBuffers' bytes, which live outside it).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";

const MB = 1024 * 1024;
type Mode = "cache" | "map";
/** heap: V8's heap used and ArrayBuffers' bytes. */
type Filled = { nodes: number; rss: number; heap: number };

async function fill(mode: Mode): Promise<Filled> {
  const { NODE_CACHE_CAPACITY, readNodesCached } = await import("../server/log/node-cache");
  const { MIN_LEVEL } = await import("../server/merkle/cached-levels");
  const { nodeKey } = await import("../server/merkle/merkle-tree");
  const gc = (globalThis as { gc?: () => void }).gc!;
  const positions = Array.from({ length: NODE_CACHE_CAPACITY }, (_, i) => ({ level: MIN_LEVEL + (i % 8), index: 3 * i }));
  // The cache copies what it is handed, so its hashes are handed over as views of one buffer made
  // beforehand: the figure is what the cache keeps, not what the allocator keeps of freed arrays.
  const all = new Uint8Array(positions.length * 32);
  for (let i = 0; i < positions.length; i++) all.set(createHash("sha256").update(String(i)).digest(), i * 32);
  const hashOf = (i: number) => (mode === "cache" ? all.subarray(i * 32, i * 32 + 32) : all.slice(i * 32, i * 32 + 32));
  gc();
  const before = process.memoryUsage();
  const kept = new Map<string, Uint8Array>();
  for (let start = 0; start < positions.length; start += 1000) {
    const chunk = positions.slice(start, start + 1000);
    const answer = new Map(chunk.map((p, j) => [nodeKey(p.level, p.index), hashOf(start + j)]));
    if (mode === "cache") await readNodesCached(chunk, async () => answer);
    else for (const [k, v] of answer) kept.set(k, v);
  }
  gc();
  const after = process.memoryUsage();
  (globalThis as { kept?: unknown }).kept = kept;
  const held = (m: NodeJS.MemoryUsage) => m.heapUsed + m.arrayBuffers;
  return { nodes: positions.length, rss: after.rss - before.rss, heap: held(after) - held(before) };
}

function measure(mode: Mode): Filled {
  const out = execFileSync("node_modules/.bin/tsx", ["--expose-gc", "--conditions=react-server", "bench/node-cache.ts", "--fill", mode], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Filled;
}

export function nodeCacheBench(): string[] {
  const lines = ["", "Tree-node cache at its bound (memory a full GC leaves; each in a process of its own)"];
  const map = measure("map");
  const cache = measure("cache");
  for (const [name, f] of [
    ["Map of level:index strings to Uint8Arrays (baseline)", map],
    ["the cache (hashes in one slab)", cache],
  ] as const) {
    lines.push(
      `  ${name}: ${f.nodes} nodes, RSS +${(f.rss / MB).toFixed(1)} MB (${(f.rss / f.nodes).toFixed(0)} B a node), heap and ArrayBuffers +${(f.heap / MB).toFixed(1)} MB`,
    );
  }
  lines.push(`  ratio cache / baseline, RSS: ${(cache.rss / map.rss).toFixed(2)}`);
  return lines;
}

const at = process.argv.indexOf("--fill");
if (at >= 0) {
  const mode = process.argv[at + 1] as Mode;
  fill(mode).then((f) => console.log(JSON.stringify(f)));
}
