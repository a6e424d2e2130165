import "server-only";
import type { Policy } from "@/lib/verify";
import { getDb, isUniqueViolation } from "../db";
import { COSIGNATURE_WINDOW, forgetPublished, newestQuorum } from "./published";

/**
 * Publishes the largest checkpoint, newer than the published one, whose own cosignatures meet
 * the policy's quorum (each checkpoint judged by its own: cosignatures of different sizes never
 * add up). The published size only moves forward.
 */
export async function publishWitnessed(policy: Policy): Promise<void> {
  const db = getDb();
  const current = await db.read.publishedCheckpoint.findUnique({ where: { id: 1 } });
  const rows = await db.read.cosignature.findMany({
    where: current ? { treeSize: { gt: current.treeSize } } : {},
    select: { treeSize: true, witnessKey: true },
    orderBy: { treeSize: "desc" },
    take: COSIGNATURE_WINDOW,
  });
  const size = newestQuorum(policy, rows);
  if (size !== null) await publish(size);
}

async function publish(size: bigint): Promise<void> {
  const db = getDb();
  try {
    await db.write(async (tx) => {
      const moved = await tx.publishedCheckpoint.updateMany({
        where: { id: 1, treeSize: { lt: size } },
        data: { treeSize: size, updatedAt: new Date() },
      });
      if (moved.count === 0 && !(await tx.publishedCheckpoint.findUnique({ where: { id: 1 } }))) {
        await tx.publishedCheckpoint.create({ data: { id: 1, treeSize: size, updatedAt: new Date() } });
      }
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // another instance published first
  }
  forgetPublished();
}
