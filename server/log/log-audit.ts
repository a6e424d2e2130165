// The log audit: rebuilds the whole Merkle tree from the attestations (recomputing every leaf
// from its stored fields) and checks it against every stored node and every stored checkpoint,
// including each checkpoint's signature. `npm run audit-log` runs it.
// It audits the log as of its head when it starts: a log that serves meanwhile grows, and what it
// appends (leaves, the nodes they complete, checkpoints of larger trees) is left for the next
// audit. Sound because an append moves the head in the same transaction as its leaves and nodes.
import "server-only";
import { verifyCheckpoint } from "@/lib/verify";
import { bytesEqual, bytesToHex } from "@/lib/verify/encoding";
import { getDb } from "@/server/db";
import { getLogIdentity } from "@/server/log/log-identity";
import { appendLeaves, nodeKey } from "@/server/log/merkle-tree";
import { storedLeafHash } from "@/server/log/stored-leaf";

export interface AuditReport {
  /** Each mismatch found, in words; empty when the log is intact. */
  problems: string[];
  /** Leaves, nodes and checkpoints checked, and the rebuilt root (hex) at that size. */
  size: number;
  nodes: number;
  checkpoints: number;
  root: string;
}

const PAGE = 5000;

export async function auditLog(): Promise<AuditReport> {
  const db = getDb().read;
  const id = await getLogIdentity();
  const keys = [id, ...id.retired];
  const verifyCheckpointByAny = (note: string) => {
    let last: unknown;
    for (const k of keys) {
      try {
        return verifyCheckpoint(note, { publicKey: k.publicKey, origin: id.origin });
      } catch (err) {
        last = err;
      }
    }
    throw last;
  };
  const problems: string[] = [];
  const head = Number((await db.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
  const checkpoints = await db.checkpoint.findMany({ where: { treeSize: { lte: head } }, orderBy: { treeSize: "asc" } });
  const nodes = new Map<string, Uint8Array>();
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
        if (end <= head) nodes.set(nodeKey(level, Number(n.index)), new Uint8Array(n.hash));
      }
      found += page.length;
      cursor = page[page.length - 1]!.index;
    }
    if (found === 0) break;
  }
  let checkedNodes = 0;
  let size = 0;
  let frontier: Uint8Array[] = [];
  let cpIndex = 0;
  const checkRoot = (root: Uint8Array) => {
    while (cpIndex < checkpoints.length && Number(checkpoints[cpIndex]!.treeSize) === size) {
      const cp = checkpoints[cpIndex++]!;
      if (!bytesEqual(new Uint8Array(cp.rootHash), root)) problems.push(`checkpoint ${size}: stored root differs from the rebuilt root`);
      try {
        // Signed by the key current then: any of the log's keys, current or retired.
        const v = verifyCheckpointByAny(cp.note);
        if (v.treeSize !== size || !bytesEqual(v.rootHash, root)) problems.push(`checkpoint ${size}: signed note does not match`);
      } catch (err) {
        problems.push(`checkpoint ${size}: ${(err as Error).message}`);
      }
    }
  };
  checkRoot(appendLeaves(0, [], []).root);
  for (let cursor = -1n; ; ) {
    const page = await db.attestation.findMany({ where: { logIndex: { gt: cursor, lt: head } }, orderBy: { logIndex: "asc" }, take: PAGE });
    if (page.length === 0) break;
    for (const a of page) {
      if (Number(a.logIndex) !== size) problems.push(`log index ${size} is missing (next is ${a.logIndex})`);
      const leaf = storedLeafHash(a);
      const grown = appendLeaves(size, frontier, [leaf]);
      for (const n of grown.newNodes) {
        const stored = nodes.get(nodeKey(n.level, n.index));
        if (!stored || !bytesEqual(stored, n.hash)) problems.push(`node ${n.level}:${n.index} differs from the rebuilt tree`);
        checkedNodes++;
      }
      size = grown.size;
      frontier = grown.frontier;
      checkRoot(grown.root);
    }
    cursor = page[page.length - 1]!.logIndex;
  }
  if (checkedNodes !== nodes.size) problems.push(`${nodes.size - checkedNodes} stored node(s) are not part of the tree`);
  if (cpIndex !== checkpoints.length) problems.push(`${checkpoints.length - cpIndex} checkpoint(s) beyond the ${size} leaves`);
  if (head !== size) problems.push(`log head says ${head} leaves, found ${size}`);
  // Rows past the first head are appends made during the audit, and each moved the head: what
  // was read past the head as it stands after that read is damage, not growth.
  const last = await db.attestation.findFirst({ orderBy: { logIndex: "desc" }, select: { logIndex: true } });
  const headNow = Number((await db.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
  if (last && Number(last.logIndex) >= headNow)
    problems.push(`an attestation at log index ${last.logIndex}, past the log head's ${headNow} leaves`);
  if (nodesEnd > headNow) problems.push(`stored nodes cover leaves up to ${nodesEnd}, past the log head's ${headNow}`);
  return { problems, size, nodes: checkedNodes, checkpoints: checkpoints.length, root: bytesToHex(appendLeaves(size, frontier, []).root) };
}
