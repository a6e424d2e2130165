import "server-only";
import { pdqWindowFields } from "@/lib/fingerprint/pdq-index";
import { dbBytes, type Database, type Tx, type Client } from "../db";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import { positionOf, shardOf } from "../merkle/positions";
import type { EntryWriter, LogWriter, NodeHashes, Store } from "./types";

async function readNodes(db: Client | Tx, positions: readonly NodePosition[]): Promise<NodeHashes> {
  const map: NodeHashes = new Map();
  if (positions.length === 0) return map;
  const rows = await db.logNode.findMany({ where: { OR: positions.map((p) => ({ level: p.level, index: BigInt(p.index) })) } });
  for (const r of rows) map.set(nodeKey(r.level, Number(r.index)), new Uint8Array(r.hash));
  return map;
}

function entryWriter(tx: Tx): EntryWriter {
  return {
    idempotencyRecord: (tenantId, key) => tx.idempotencyRecord.findUnique({ where: { tenantId_key: { tenantId, key } } }),
    putIdempotencyRecord: async (r) => {
      const { tenantId, key, ...rest } = r;
      await tx.idempotencyRecord.upsert({ where: { tenantId_key: { tenantId, key } }, create: r, update: rest });
    },
    takeUsageUnit: async (userId, month, limit) => {
      await tx.$executeRaw`INSERT INTO usage_counters (user_id, month, "count") VALUES (${userId}, ${month}, 0) ON CONFLICT DO NOTHING`;
      const taken = await tx.usageCounter.updateMany({
        where: limit === null ? { userId, month } : { userId, month, count: { lt: limit } },
        data: { count: { increment: 1 } },
      });
      return taken.count === 1;
    },
    insertProtection: async (p) => void (await tx.protection.create({ data: p })),
    insertFingerprints: async (rows) =>
      void (await tx.fingerprint.createMany({
        data: rows.map(({ windows, ...f }) => ({ ...f, ...pdqWindowFields(windows) })),
      })),
  };
}

/** A LogWriter inside a Prisma transaction (the reference; also what a rotation appends its last entry with). */
export function prismaLogWriter(tx: Tx): LogWriter {
  return {
    entries: entryWriter(tx),
    // An UPDATE takes the row lock on PostgreSQL and the write lock on SQLite.
    lockHead: async () => Number((await tx.log.update({ where: { id: 1 }, data: { updatedAt: new Date() } })).treeSize),
    nodes: (positions) => readNodes(tx, positions),
    insertAttestations: async (rows) => void (await tx.attestation.createMany({ data: rows })),
    insertNodes: async (nodes) =>
      void (await tx.logNode.createMany({ data: nodes.map((n) => ({ level: n.level, index: BigInt(n.index), hash: dbBytes(n.hash) })) })),
    insertCheckpoint: async (cp) => void (await tx.checkpoint.create({ data: { ...cp, rootHash: dbBytes(cp.rootHash) } })),
    setHead: async (size, root) =>
      void (await tx.log.update({ where: { id: 1 }, data: { treeSize: BigInt(size), rootHash: dbBytes(root) } })),
  };
}

/**
 * The portable implementation, through Prisma: the reference both raw stores are tested
 * against (sqlite-store.test.ts, pg-store.test.ts, on the same database). The server itself
 * uses those (store/index.ts): each Prisma statement costs more than the raw one.
 */
export function prismaStore(db: Database): Store {
  const r = db.read;
  return {
    reads: {
      apiKeyByHash: (hash) => r.apiKey.findUnique({ where: { secretHash: hash } }),
      attestation: (id, tenantId) => r.attestation.findFirst({ where: { id, tenantId } }),
      issuer: (id) => r.issuer.findUnique({ where: { id } }),
      signingKey: (kid) => r.signingKey.findUnique({ where: { kid } }),
      latestCheckpoint: () => r.checkpoint.findFirst({ orderBy: { treeSize: "desc" } }),
      nodes: (positions) => readNodes(r, positions),
      bundleRows: async (id, tenantId) => {
        const found = await r.attestation.findFirst({ where: { id, tenantId }, include: { issuer: true } });
        if (!found) return null;
        // After the attestation: any checkpoint committed since includes its leaf.
        const [signingKey, checkpoint] = await Promise.all([
          r.signingKey.findUnique({ where: { kid: found.kid }, omit: { privateKeyEnc: true } }),
          // The newest of the attestation's shard (server/merkle/positions.ts).
          r.checkpoint.findFirst({
            where: { treeSize: { lt: BigInt(positionOf(shardOf(found.logIndex) + 1, 0)) } },
            orderBy: { treeSize: "desc" },
          }),
        ]);
        if (!signingKey || !checkpoint) throw new Error(`attestation ${id} refers to a missing issuer, key or checkpoint`);
        const { issuer, ...attestation } = found;
        return { attestation, issuer, signingKey, checkpoint, lowerNodes: new Map() };
      },
    },
    append: (fn) => db.write((tx) => fn(prismaLogWriter(tx))),
    close: async () => {},
  };
}
