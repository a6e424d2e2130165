// The log audit: rebuilds each shard's Merkle tree from the attestations (recomputing every leaf
// from its stored fields) and checks it against every stored node and every stored checkpoint,
// including each checkpoint's signature by its shard's key, and that each frozen shard ends with
// a successor statement naming the next. `npm run audit-log` runs it.
// It audits the log as of its head when it starts: a log that serves meanwhile grows, and what it
// appends (leaves, the nodes they complete, checkpoints of larger trees) is left for the next
// audit. Sound because an append moves the head in the same transaction as its leaves and nodes.
import "server-only";
import { verifyCheckpoint } from "@/lib/verify";
import { bytesEqual, bytesToHex } from "@/lib/verify/encoding";
import { getDb } from "@/server/db";
import { verifySuccessor } from "@/lib/verify/successor";
import { getLogIdentity } from "@/server/log/log-identity";
import { appendLeaves, nodeKey } from "@/server/merkle/merkle-tree";
import { localOf, positionOf, shardNode, shardOf } from "@/server/merkle/positions";
import { getShards, type Shard } from "@/server/log/shards";
import { storedAttestation, storedLeafHash } from "@/server/log/stored-leaf";
import type { Attestation } from "@/server/store/types";
import { parseJson } from "@/lib/verify/json-parse";

export interface AuditReport {
  /** Each mismatch found, in words; empty when the log is intact. */
  problems: string[];
  /** Leaves, nodes and checkpoints checked (in every shard), and the current shard's rebuilt root (hex). */
  size: number;
  nodes: number;
  checkpoints: number;
  root: string;
}

const PAGE = 5000;

export async function auditLog(): Promise<AuditReport> {
  const db = getDb().read;
  const id = await getLogIdentity();
  const problems: string[] = [];
  const head = Number((await db.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
  const shards = await getShards(true);
  const checkpoints = await db.checkpoint.findMany({ where: { treeSize: { lte: head } }, orderBy: { treeSize: "asc" } });
  // Every stored node, by shard (server/merkle/positions.ts), within the head's tree.
  const nodes = new Map<number, Map<string, Uint8Array>>(shards.map((s) => [s.shard, new Map()]));
  let nodesEnd = 0;
  for (let level = 0; ; level++) {
    let found = 0;
    for (let cursor = -1n; ; ) {
      const page = await db.logNode.findMany({ where: { level, index: { gt: cursor } }, orderBy: { index: "asc" }, take: PAGE });
      if (page.length === 0) break;
      // A node exists once its whole subtree does: the head's tree holds those ending by `head`.
      for (const n of page) {
        const end = (Number(n.index) + 1) * 2 ** level;
        nodesEnd = Math.max(nodesEnd, end);
        const own = shardNode({ level, index: Number(n.index) });
        const of = nodes.get(shardOf(end - 1));
        if (!of) problems.push(`node ${level}:${n.index} is in no shard of the log`);
        else if (end <= head) of.set(nodeKey(own.level, own.index), new Uint8Array(n.hash));
      }
      found += page.length;
      cursor = page[page.length - 1]!.index;
    }
    if (found === 0) break;
  }
  let size = 0;
  let checkedNodes = 0;
  let storedNodes = 0;
  let root = "";
  let cpIndex = 0;
  for (const shard of shards) {
    const end = shard.finalSize ?? localOf(head);
    // Signed by the key current then: the shard's own; for the first, any key that replaced another under its origin.
    const keys = shard.shard === 0 ? [shard, ...id.retired.filter((k) => !bytesEqual(k.publicKey, shard.publicKey))] : [shard];
    const first = cpIndex;
    while (cpIndex < checkpoints.length && shardOf(checkpoints[cpIndex]!.treeSize) === shard.shard) cpIndex++;
    const own = nodes.get(shard.shard)!;
    storedNodes += own.size;
    const r = await auditShard(shard, end, own, checkpoints.slice(first, cpIndex), keys, problems);
    size += r.size;
    checkedNodes += r.nodes;
    root = r.root;
    if (shard.finalSize !== null) checkSuccessor(shard, shards[shards.indexOf(shard) + 1], r.last, problems);
  }
  if (checkedNodes !== storedNodes) problems.push(`${storedNodes - checkedNodes} stored node(s) are not part of the tree`);
  if (cpIndex !== checkpoints.length) problems.push(`${checkpoints.length - cpIndex} checkpoint(s) in no shard of the log`);
  // Rows past the first head are appends made during the audit, and each moved the head: what
  // was read past the head as it stands after that read is damage, not growth.
  const last = await db.attestation.findFirst({ orderBy: { logIndex: "desc" }, select: { logIndex: true } });
  const headNow = Number((await db.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
  if (last && Number(last.logIndex) >= headNow)
    problems.push(`an attestation at log position ${last.logIndex}, past the log head's ${headNow}`);
  if (nodesEnd > headNow) problems.push(`stored nodes cover leaves up to ${nodesEnd}, past the log head's ${headNow}`);
  return { problems, size, nodes: checkedNodes, checkpoints: checkpoints.length, root };
}

type CheckpointRow = { treeSize: bigint; rootHash: Uint8Array; note: string };
type Key = { publicKey: Uint8Array };

/** Rebuilds shard `shard`'s tree of `end` leaves from its attestations, against its nodes and checkpoints. */
async function auditShard(
  shard: Shard,
  end: number,
  nodes: Map<string, Uint8Array>,
  checkpoints: CheckpointRow[],
  keys: Key[],
  problems: string[],
) {
  const db = getDb().read;
  const where = (what: string) => (shard.shard === 0 ? what : `${what} of ${shard.origin}`);
  const verifyByAny = (note: string) => {
    let failure: unknown;
    for (const k of keys) {
      try {
        return verifyCheckpoint(note, { publicKey: k.publicKey, origin: shard.origin });
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  };
  let checkedNodes = 0;
  let size = 0;
  let frontier: Uint8Array[] = [];
  let cpIndex = 0;
  let last: Attestation | null = null;
  const checkRoot = (root: Uint8Array) => {
    while (cpIndex < checkpoints.length && localOf(checkpoints[cpIndex]!.treeSize) === size) {
      const cp = checkpoints[cpIndex++]!;
      if (!bytesEqual(new Uint8Array(cp.rootHash), root))
        problems.push(`${where(`checkpoint ${size}`)}: stored root differs from the rebuilt root`);
      try {
        const v = verifyByAny(cp.note);
        if (v.treeSize !== size || !bytesEqual(v.rootHash, root))
          problems.push(`${where(`checkpoint ${size}`)}: signed note does not match`);
      } catch (err) {
        problems.push(`${where(`checkpoint ${size}`)}: ${(err as Error).message}`);
      }
    }
  };
  checkRoot(appendLeaves(0, [], []).root);
  const base = positionOf(shard.shard, 0);
  for (let cursor = BigInt(base - 1); ; ) {
    const page = await db.attestation.findMany({
      where: { logIndex: { gt: cursor, lt: BigInt(base + end) } },
      orderBy: { logIndex: "asc" },
      take: PAGE,
    });
    if (page.length === 0) break;
    for (const a of page) {
      if (localOf(a.logIndex) !== size) problems.push(`${where(`log index ${size}`)} is missing (next is ${localOf(a.logIndex)})`);
      const grown = appendLeaves(size, frontier, [storedLeafHash(a)]);
      for (const n of grown.newNodes) {
        const stored = nodes.get(nodeKey(n.level, n.index));
        if (!stored || !bytesEqual(stored, n.hash)) problems.push(`${where(`node ${n.level}:${n.index}`)} differs from the rebuilt tree`);
        checkedNodes++;
      }
      size = grown.size;
      frontier = grown.frontier;
      last = a;
      checkRoot(grown.root);
    }
    cursor = page[page.length - 1]!.logIndex;
  }
  if (cpIndex !== checkpoints.length)
    problems.push(`${checkpoints.length - cpIndex} checkpoint(s) beyond the ${size} leaves${shard.shard ? ` of ${shard.origin}` : ""}`);
  if (size !== end) problems.push(`${where("the log")} should have ${end} leaves, found ${size}`);
  return { size, nodes: checkedNodes, root: bytesToHex(appendLeaves(size, frontier, []).root), last };
}

/** A frozen shard's last entry is its successor statement, naming the next shard's origin and key. */
function checkSuccessor(shard: Shard, next: Shard | undefined, last: Attestation | null, problems: string[]) {
  try {
    if (!last) throw new Error("it has no entries");
    if (last.seal) throw new Error("its last entry is sealed");
    const v = verifySuccessor({ ...storedAttestation(last), payload: parseJson(last.payload) as Record<string, unknown> }, shard);
    if (!next || v.origin !== next.origin || !bytesEqual(v.publicKey, next.publicKey))
      throw new Error(`its successor statement names ${v.origin}, not the next shard`);
  } catch (err) {
    problems.push(`the frozen log ${shard.origin}: ${(err as Error).message}`);
  }
}
