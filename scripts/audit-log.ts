// Rebuilds the whole Merkle tree from the attestations (recomputing every leaf from its stored
// fields) and checks it against every stored node and every stored checkpoint, including each
// checkpoint's signature. Exit 0 when the log is intact. `npm run audit-log`.
import { verifyCheckpoint } from "@/lib/verify";
import { leafData } from "@/lib/verify/attestation";
import { bytesEqual, bytesToHex } from "@/lib/verify/encoding";
import { leafHash } from "@/lib/verify/merkle";
import { getDb } from "@/server/db";
import { getLogIdentity } from "@/server/log/log-identity";
import { appendLeaves, nodeKey } from "@/server/log/merkle-tree";

const PAGE = 5000;

async function audit(): Promise<string[]> {
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
  const checkpoints = await db.checkpoint.findMany({ orderBy: { treeSize: "asc" } });
  const nodes = new Map<string, Uint8Array>();
  for (let level = 0; ; level++) {
    let found = 0;
    for (let cursor = -1n; ; ) {
      const page = await db.logNode.findMany({ where: { level, index: { gt: cursor } }, orderBy: { index: "asc" }, take: PAGE });
      if (page.length === 0) break;
      for (const n of page) nodes.set(nodeKey(level, Number(n.index)), new Uint8Array(n.hash));
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
    const page = await db.attestation.findMany({ where: { logIndex: { gt: cursor } }, orderBy: { logIndex: "asc" }, take: PAGE });
    if (page.length === 0) break;
    for (const a of page) {
      if (Number(a.logIndex) !== size) problems.push(`log index ${size} is missing (next is ${a.logIndex})`);
      const leaf = leafHash(
        leafData({
          id: a.id,
          issuer_id: a.issuerId,
          kid: a.kid,
          payload: JSON.parse(a.payload),
          created_at: a.createdAt.toISOString(),
          signature: a.signature,
        }),
      );
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
  const head = await db.log.findUniqueOrThrow({ where: { id: 1 } });
  if (Number(head.treeSize) !== size) problems.push(`log head says ${head.treeSize} leaves, found ${size}`);
  console.log(
    `audited ${size} leaves, ${checkedNodes} nodes and ${checkpoints.length} checkpoints; root ${bytesToHex(appendLeaves(size, frontier, []).root)}`,
  );
  return problems;
}

audit()
  .then(async (problems) => {
    await getDb().close();
    for (const p of problems) console.error(`FAIL ${p}`);
    process.exit(problems.length ? 1 : 0);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
