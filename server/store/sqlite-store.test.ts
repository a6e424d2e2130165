// The SQLite hot-path statements against the portable Prisma implementation, on the same file:
// both must return exactly the same rows, so callers cannot tell which one serves them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteLog, useTemporaryDataDir, type SqliteLog } from "../test-support/sqlite-log";
import type { NodePosition } from "../crypto/merkle-tree";

const dir = useTemporaryDataDir("store");
let m: SqliteLog;
let ids: string[];

beforeAll(async () => {
  m = await openSqliteLog(dir);
  const seq = m.sequencer.getSequencer();
  const entries = Array.from({ length: 75 }, () => m.entry());
  await Promise.all(entries.map((e) => seq.append(e)));
  ids = entries.map((e) => e.row.id);
}, 60_000);

afterAll(async () => {
  await m?.close();
});

async function stores() {
  const { prismaStore } = await import("./prisma-store");
  return { sqlite: m.store.getStore().reads, prisma: prismaStore(m.db.getDb()).reads };
}

describe("SQLite hot reads", () => {
  it("reads nodes in one call, more than one statement's worth, leaving out absent ones", async () => {
    const { sqlite, prisma } = await stores();
    const positions: NodePosition[] = [];
    for (let level = 0; level <= 7; level++) for (let index = 0; index < 12; index++) positions.push({ level, index });
    positions.push({ level: 0, index: 10_000 }); // beyond the log: absent
    const got = await sqlite.nodes(positions);
    const want = await prisma.nodes(positions);
    expect(positions.length).toBeGreaterThan(64);
    expect(got.size).toBeGreaterThan(32);
    expect(got.has("0:10000")).toBe(false);
    expect([...got.entries()].sort()).toEqual([...want.entries()].sort());
    expect(await sqlite.nodes([])).toEqual(new Map());
  });

  it("reads a bundle's rows, with the newest checkpoint, exactly as Prisma does, and no private key", async () => {
    const { sqlite, prisma } = await stores();
    for (const id of [ids[0]!, ids[40]!, ids[74]!]) {
      const got = await sqlite.bundleRows(id, m.tenantId);
      const { lowerNodes, ...rows } = got!;
      const { lowerNodes: none, ...want } = (await prisma.bundleRows(id, m.tenantId))!;
      expect(rows).toEqual(want);
      expect(none.size).toBe(0);
      expect(Object.keys(rows.signingKey)).not.toContain("privateKeyEnc");
      // The leaf's stored siblings below the cached levels, exactly as stored.
      const index = Number(rows.attestation.logIndex);
      const siblings = [0, 1, 2, 3, 4].map((k) => ({ level: k, index: Math.floor(index / 2 ** k) ^ 1 }));
      const stored = await prisma.nodes(siblings);
      expect([...lowerNodes.entries()].sort()).toEqual([...stored.entries()].sort());
      // 75 leaves: the first two blocks of 32 are complete, so their leaves get all five.
      if (index < 64) expect(lowerNodes.size).toBe(5);
      expect(got?.issuer.id).toBe(m.issuerId);
      expect(got?.signingKey.kid).toBe(m.kid);
      expect(Number(got?.checkpoint.treeSize)).toBe(75);
      expect(Number(got?.attestation.logIndex)).toBeLessThan(75);
    }
  });

  it("finds no bundle for an unknown id or another tenant's attestation", async () => {
    const { sqlite, prisma } = await stores();
    expect(await sqlite.bundleRows("00000000-0000-7000-8000-000000000000", m.tenantId)).toBeNull();
    expect(await sqlite.bundleRows(ids[0]!, "another-tenant")).toBeNull();
    expect(await prisma.bundleRows(ids[0]!, "another-tenant")).toBeNull();
  });
});
