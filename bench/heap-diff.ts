// Compares two V8 heap snapshots (.heapsnapshot, e.g. from --heapsnapshot-signal) of one process:
//   node --max-old-space-size=6144 --import tsx bench/heap-diff.ts early.heapsnapshot end.heapsnapshot [--top 25]
// For each snapshot it builds the dominator tree (weak edges ignored, as DevTools does) and so
// every object's retained size. It prints:
//   - the classes (constructor names; "(string)", "(closure)", "(array)", "(compiled code)", ...
//     for V8's internal kinds) whose retained size and count grew most from the first snapshot to
//     the second (a class's retained size counts only its objects that no object of the same class
//     dominates, as DevTools' summary does);
//   - the objects present in both snapshots (V8 keeps an object's id across the snapshots of a
//     process) whose retained size grew most, each with its path from the GC roots: a Map or array
//     that only grows shows up here with the variable that holds it;
//   - the largest objects of the second snapshot with their paths.
import fs from "node:fs";
import { parseArgs } from "node:util";

interface Raw {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Heap {
  n: number;
  ids: Float64Array;
  self: Float64Array;
  retained: Float64Array;
  cls: Int32Array;
  classNames: string[];
  names: string[];
  nodeName: Int32Array;
  nodeType: Int32Array;
  typeNames: string[];
  firstEdge: Uint32Array;
  edgeTo: Uint32Array;
  edgeType: Uint8Array;
  edgeName: Int32Array;
  edgeTypeNames: string[];
  /** Parent on a shortest path from the root, and the edge taken from it. */
  parent: Int32Array;
  parentEdge: Int32Array;
  byId: Map<number, number>;
  total: number;
}

function classOf(type: string, name: string): string {
  switch (type) {
    case "object":
    case "native":
      return name.startsWith("system / ") ? `(${name})` : name;
    case "closure":
      return "(closure)";
    case "string":
    case "concatenated string":
    case "sliced string":
      return "(string)";
    case "array":
      return "(array)";
    case "code":
      return "(compiled code)";
    case "hidden":
      return "(system)";
    case "number":
      return "(number)";
    case "regexp":
      return "(regexp)";
    default:
      return `(${type})`;
  }
}

export function loadHeap(file: string): Heap {
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Raw;
  const { meta } = raw.snapshot;
  const NF = meta.node_fields.length;
  const EF = meta.edge_fields.length;
  const [nType, nName, nId, nSelf, nEdges] = ["type", "name", "id", "self_size", "edge_count"].map((f) => meta.node_fields.indexOf(f)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
  const typeNames = meta.node_types[0];
  const edgeTypeNames = meta.edge_types[0];
  const weak = edgeTypeNames.indexOf("weak");
  const shortcut = edgeTypeNames.indexOf("shortcut");
  const n = raw.nodes.length / NF;
  const m = raw.edges.length / EF;
  const ids = new Float64Array(n);
  const self = new Float64Array(n);
  const nodeName = new Int32Array(n);
  const nodeType = new Int32Array(n);
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    const b = i * NF;
    ids[i] = raw.nodes[b + nId]!;
    self[i] = raw.nodes[b + nSelf]!;
    nodeName[i] = raw.nodes[b + nName]!;
    nodeType[i] = raw.nodes[b + nType]!;
    firstEdge[i] = e;
    e += raw.nodes[b + nEdges]!;
    firstEdge[i + 1] = e;
  }
  const edgeTo = new Uint32Array(m);
  const edgeType = new Uint8Array(m);
  const edgeName = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    edgeTo[j] = raw.edges[j * EF + eTo]! / NF;
    edgeType[j] = raw.edges[j * EF + eType]!;
    edgeName[j] = raw.edges[j * EF + eName]!;
  }
  const names = raw.strings;
  const strong = (j: number) => edgeType[j] !== weak && edgeType[j] !== shortcut;

  // Post-order of the nodes reachable from the root (node 0) over strong edges.
  const order = new Int32Array(n).fill(-1); // post-order number
  const post = new Int32Array(n);
  let count = 0;
  {
    const stack = new Int32Array(n);
    const next = new Uint32Array(n);
    const seen = new Uint8Array(n);
    let sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    next[0] = firstEdge[0]!;
    while (sp > 0) {
      const v = stack[sp - 1]!;
      if (next[v]! < firstEdge[v + 1]!) {
        const j = next[v]!++;
        if (!strong(j)) continue;
        const w = edgeTo[j]!;
        if (seen[w]) continue;
        seen[w] = 1;
        next[w] = firstEdge[w]!;
        stack[sp++] = w;
      } else {
        sp--;
        order[v] = count;
        post[count++] = v;
      }
    }
  }
  // Predecessors (strong edges between reachable nodes), in CSR form.
  const predCount = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) {
    if (order[v]! < 0) continue;
    for (let j = firstEdge[v]!; j < firstEdge[v + 1]!; j++) if (strong(j) && order[edgeTo[j]!]! >= 0) predCount[edgeTo[j]! + 1]!++;
  }
  for (let v = 0; v < n; v++) predCount[v + 1]! += predCount[v]!;
  const preds = new Uint32Array(predCount[n]!);
  const fill = predCount.slice(0, n);
  for (let v = 0; v < n; v++) {
    if (order[v]! < 0) continue;
    for (let j = firstEdge[v]!; j < firstEdge[v + 1]!; j++) {
      const w = edgeTo[j]!;
      if (strong(j) && order[w]! >= 0) preds[fill[w]!++] = v;
    }
  }
  // Dominators by post-order numbers (Cooper, Harvey and Kennedy).
  const root = order[0]!;
  const idom = new Int32Array(count).fill(-1);
  idom[root] = root;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idom[a]!;
      while (b < a) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = count - 2; k >= 0; k--) {
      const v = post[k]!;
      let d = -1;
      for (let p = predCount[v]!; p < predCount[v + 1]!; p++) {
        const u = order[preds[p]!]!;
        if (idom[u] === -1) continue;
        d = d === -1 ? u : intersect(u, d);
      }
      if (d !== -1 && idom[k] !== d) {
        idom[k] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(n);
  for (let k = 0; k < count; k++) retained[post[k]!] = self[post[k]!]!;
  for (let k = 0; k < count; k++) if (k !== root && idom[k]! >= 0) retained[post[idom[k]!]!]! += retained[post[k]!]!;

  // Classes, and each class's retained size counted once per outermost object of the class.
  const classIndex = new Map<string, number>();
  const classNames: string[] = [];
  const cls = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const c = classOf(typeNames[nodeType[v]!]!, names[nodeName[v]!]!);
    let i = classIndex.get(c);
    if (i === undefined) classIndex.set(c, (i = classNames.push(c) - 1));
    cls[v] = i;
  }

  // Shortest paths from the root, for naming where an object is held.
  const parent = new Int32Array(n).fill(-1);
  const parentEdge = new Int32Array(n).fill(-1);
  {
    const queue = new Int32Array(n);
    let head = 0;
    let tail = 0;
    queue[tail++] = 0;
    parent[0] = 0;
    while (head < tail) {
      const v = queue[head++]!;
      for (let j = firstEdge[v]!; j < firstEdge[v + 1]!; j++) {
        const w = edgeTo[j]!;
        if (!strong(j) || parent[w] !== -1) continue;
        parent[w] = v;
        parentEdge[w] = j;
        queue[tail++] = w;
      }
    }
  }
  const byId = new Map<number, number>();
  for (let v = 0; v < n; v++) byId.set(ids[v]!, v);
  // Dominator children, for the per-class retained sizes.
  const heap: Heap = {
    n,
    ids,
    self,
    retained,
    cls,
    classNames,
    names,
    nodeName,
    nodeType,
    typeNames,
    firstEdge,
    edgeTo,
    edgeType,
    edgeName,
    edgeTypeNames,
    parent,
    parentEdge,
    byId,
    total: retained[0]!,
  };
  (heap as Heap & { idomNode: Int32Array }).idomNode = Int32Array.from({ length: n }, (_, v) =>
    order[v]! >= 0 && idom[order[v]!]! >= 0 ? post[idom[order[v]!]!]! : -1,
  );
  return heap;
}

/** Entries of each Map, Set, array or plain object: the edges of its backing table or elements, else its properties. */
function entryCounts(h: Heap): Uint32Array {
  const out = new Uint32Array(h.n);
  const edges = (v: number) => h.firstEdge[v + 1]! - h.firstEdge[v]!;
  for (let v = 0; v < h.n; v++) {
    const c = h.classNames[h.cls[v]!]!;
    if (c !== "Map" && c !== "Set" && c !== "Array" && c !== "Object" && c !== "WeakMap" && c !== "WeakSet") continue;
    let n = 0;
    for (let j = h.firstEdge[v]!; j < h.firstEdge[v + 1]!; j++) {
      const label =
        h.edgeTypeNames[h.edgeType[j]!] === "internal" || h.edgeTypeNames[h.edgeType[j]!] === "property" ? h.names[h.edgeName[j]!] : "";
      if (label === "table" || label === "elements") n += edges(h.edgeTo[j]!);
      else if (h.edgeTypeNames[h.edgeType[j]!] === "property" || h.edgeTypeNames[h.edgeType[j]!] === "element") n++;
    }
    out[v] = n;
  }
  return out;
}

interface ClassStats {
  count: number;
  self: number;
  retained: number;
}

function classStats(h: Heap): Map<string, ClassStats> {
  const idomNode = (h as Heap & { idomNode: Int32Array }).idomNode;
  // Children lists of the dominator tree.
  const childCount = new Uint32Array(h.n + 1);
  for (let v = 1; v < h.n; v++) if (idomNode[v]! >= 0 && idomNode[v] !== v) childCount[idomNode[v]! + 1]!++;
  for (let v = 0; v < h.n; v++) childCount[v + 1]! += childCount[v]!;
  const children = new Uint32Array(childCount[h.n]!);
  const fill = childCount.slice(0, h.n);
  for (let v = 1; v < h.n; v++) if (idomNode[v]! >= 0 && idomNode[v] !== v) children[fill[idomNode[v]!]!++] = v;
  const stats = h.classNames.map(() => ({ count: 0, self: 0, retained: 0 }));
  const active = new Int32Array(h.classNames.length);
  // Depth-first over the dominator tree: an object adds its retained size to its class unless an
  // object of the same class dominates it.
  const stack: number[] = [0];
  const exiting = new Uint8Array(h.n);
  while (stack.length > 0) {
    const v = stack.pop()!;
    const c = h.cls[v]!;
    if (exiting[v]) {
      active[c]!--;
      continue;
    }
    const s = stats[c]!;
    s.count++;
    s.self += h.self[v]!;
    if (active[c] === 0) s.retained += h.retained[v]!;
    active[c]!++;
    exiting[v] = 1;
    stack.push(v);
    for (let k = childCount[v]!; k < childCount[v + 1]!; k++) stack.push(children[k]!);
  }
  return new Map(h.classNames.map((c, i) => [c, stats[i]!]));
}

function edgeLabel(h: Heap, j: number, generic = false): string {
  const t = h.edgeTypeNames[h.edgeType[j]!]!;
  const name = h.edgeName[j]!;
  if (t === "element" || t === "hidden") return generic ? "[]" : `[${name}]`;
  return `.${h.names[name]}`;
}

function nodeLabel(h: Heap, v: number): string {
  const name = h.names[h.nodeName[v]!]!;
  const t = h.typeNames[h.nodeType[v]!]!;
  const short = name.length > 60 ? `${name.slice(0, 57)}...` : name;
  return t === "object" || t === "native" || t === "closure" ? `${short}${t === "closure" ? "()" : ""}` : `(${t}) ${short}`;
}

/** The last steps of a shortest path from the GC roots to `v` (`generic`: without element indexes, to group paths). */
function pathTo(h: Heap, v: number, steps = 7, generic = false): string {
  const parts: string[] = [];
  let u = v;
  while (u > 0 && h.parent[u]! >= 0 && parts.length < steps) {
    parts.unshift(`${edgeLabel(h, h.parentEdge[u]!, generic)}`);
    u = h.parent[u]!;
    if (u > 0) parts.unshift(nodeLabel(h, u));
  }
  if (h.parent[v] === -1) return "(unreachable)";
  return `${u > 0 ? "… " : ""}${parts.join(" ")} → ${nodeLabel(h, v)}`;
}

const mb = (b: number) => `${(b / 1048576).toFixed(2)} MB`;
const signed = (b: number) => `${b >= 0 ? "+" : ""}${(b / 1048576).toFixed(2)} MB`;

export function diff(a: Heap, b: Heap, top: number): string[] {
  const sa = classStats(a);
  const sb = classStats(b);
  const lines = [
    `snapshots: ${a.n.toLocaleString("en")} objects, ${mb(a.total)} reachable → ${b.n.toLocaleString("en")} objects, ${mb(b.total)} reachable (${signed(b.total - a.total)})`,
  ];
  const rows = [...new Set([...sa.keys(), ...sb.keys()])].map((c) => {
    const x = sa.get(c) ?? { count: 0, self: 0, retained: 0 };
    const y = sb.get(c) ?? { count: 0, self: 0, retained: 0 };
    return { c, x, y, dRetained: y.retained - x.retained, dSelf: y.self - x.self, dCount: y.count - x.count };
  });
  const row = (r: (typeof rows)[number]) =>
    `  ${r.c.length > 48 ? `${r.c.slice(0, 45)}...` : r.c.padEnd(48)} count ${String(r.x.count).padStart(8)} → ${String(r.y.count).padStart(8)} (${r.dCount >= 0 ? "+" : ""}${r.dCount}); self ${signed(r.dSelf)}; retained ${mb(r.x.retained)} → ${mb(r.y.retained)} (${signed(r.dRetained)})`;
  lines.push(`classes whose retained size grew most:`);
  for (const r of [...rows].sort((p, q) => q.dRetained - p.dRetained).slice(0, top)) lines.push(row(r));
  lines.push(`classes whose count grew most:`);
  for (const r of [...rows].sort((p, q) => q.dCount - p.dCount).slice(0, Math.min(top, 15))) lines.push(row(r));
  // Where the new objects of the classes whose count grew most are held: their paths from the
  // roots, grouped (element indexes left out), most frequent first.
  lines.push(`where the new objects (not in the first snapshot) of the classes whose count grew most are held:`);
  for (const r of [...rows]
    .filter((r) => r.dCount > 0)
    .sort((p, q) => q.dCount - p.dCount)
    .slice(0, 6)) {
    const c = b.classNames.indexOf(r.c);
    const groups = new Map<string, number>();
    let fresh = 0;
    for (let v = 1; v < b.n; v++) {
      if (b.cls[v] !== c || a.byId.has(b.ids[v]!)) continue;
      fresh++;
      const p = pathTo(b, v, 6, true);
      groups.set(p, (groups.get(p) ?? 0) + 1);
    }
    lines.push(`  ${r.c}: ${fresh} new`);
    for (const [p, k] of [...groups].sort((x, y) => y[1] - x[1]).slice(0, 3)) lines.push(`    ${String(k).padStart(7)} × ${p}`);
  }
  // Collections (a Map's or Set's table, an array's elements, an object's properties) of both
  // snapshots whose number of entries grew most: an unbounded cache grows here.
  const entriesA = entryCounts(a);
  const entriesB = entryCounts(b);
  const coll: { v: number; before: number; after: number }[] = [];
  for (let v = 1; v < b.n; v++) {
    const u = a.byId.get(b.ids[v]!);
    if (u === undefined || entriesB[v]! <= entriesA[u]!) continue;
    coll.push({ v, before: entriesA[u]!, after: entriesB[v]! });
  }
  coll.sort((p, q) => q.after - q.before - (p.after - p.before));
  lines.push(`collections in both snapshots whose number of entries grew most:`);
  for (const g of coll.slice(0, Math.min(top, 12)))
    lines.push(`  +${g.after - g.before} entries (${g.before} → ${g.after}), retained ${mb(b.retained[g.v]!)}: ${pathTo(b, g.v)}`);
  if (coll.length === 0) lines.push("  none grew");
  // Objects of both snapshots whose retained size grew most.
  const grown: { v: number; before: number; after: number }[] = [];
  for (let v = 1; v < b.n; v++) {
    const u = a.byId.get(b.ids[v]!);
    if (u === undefined) continue;
    const d = b.retained[v]! - a.retained[u]!;
    if (d > 256 * 1024) grown.push({ v, before: a.retained[u]!, after: b.retained[v]! });
  }
  grown.sort((p, q) => q.after - q.before - (p.after - p.before));
  lines.push(`objects in both snapshots whose retained size grew most (each with a shortest path from the GC roots):`);
  for (const g of grown.slice(0, Math.min(top, 15)))
    lines.push(`  ${signed(g.after - g.before).padStart(11)} (${mb(g.before)} → ${mb(g.after)}): ${pathTo(b, g.v)}`);
  if (grown.length === 0) lines.push("  none grew by more than 0.25 MB");
  const largest = Array.from({ length: b.n }, (_, v) => v)
    .filter((v) => v > 0 && b.typeNames[b.nodeType[v]!] !== "synthetic")
    .sort((p, q) => b.retained[q]! - b.retained[p]!);
  lines.push(`largest objects of the second snapshot (retained):`);
  const shown: number[] = [];
  for (const v of largest) {
    if (shown.length >= Math.min(top, 15)) break;
    shown.push(v);
    lines.push(`  ${mb(b.retained[v]!).padStart(10)}: ${pathTo(b, v)}`);
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("heap-diff.ts")) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "25" } } });
  if (positionals.length !== 2) {
    console.error("usage: heap-diff.ts <first.heapsnapshot> <second.heapsnapshot> [--top N]");
    process.exit(2);
  }
  const a = loadHeap(positionals[0]!);
  const b = loadHeap(positionals[1]!);
  console.log(diff(a, b, Number(values.top)).join("\n"));
}
