// The SQLite hot-path statements against the portable Prisma implementation, on the same file:
// both must return exactly the same rows, so callers cannot tell which one serves them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import type { NodePosition } from "../crypto/merkle-tree";
import type { HotReads } from "./types";

const dir = useTemporaryDataDir("store");
let m: TestLog;
let ids: string[];
let prisma: HotReads;
let sqlite: HotReads;

beforeAll(async () => {
  m = await openTestLog(dir);
  const seq = m.sequencer.getSequencer();
  const entries = Array.from({ length: 75 }, () => m.entry());
  await Promise.all(entries.map((e) => seq.append(e)));
  ids = entries.map((e) => e.row.id);
  const { prismaStore } = await import("./prisma-store");
  prisma = prismaStore(m.db.getDb()).reads;
  sqlite = m.store.getStore().reads;
}, 60_000);

afterAll(async () => {
  await m?.close();
});

describe("SQLite hot reads", () => {
  it("reads nodes in one call, more than one statement's worth, leaving out absent ones", async () => {
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
    let complete = 0;
    for (const id of [ids[0]!, ids[40]!, ids[74]!]) {
      const { lowerNodes, ...rows } = (await sqlite.bundleRows(id, m.tenantId))!;
      const { lowerNodes: none, ...want } = (await prisma.bundleRows(id, m.tenantId))!;
      expect(rows).toEqual(want);
      expect(none.size).toBe(0);
      expect(Object.keys(rows.signingKey)).not.toContain("privateKeyEnc");
      expect(rows.issuer.id).toBe(m.issuerId);
      expect(rows.signingKey.kid).toBe(m.kid);
      expect(Number(rows.checkpoint.treeSize)).toBeGreaterThanOrEqual(75);
      // The leaf's stored siblings below the cached levels, exactly as stored.
      const index = Number(rows.attestation.logIndex);
      const siblings = [0, 1, 2, 3, 4].map((k) => ({ level: k, index: Math.floor(index / 2 ** k) ^ 1 }));
      expect([...lowerNodes.entries()].sort()).toEqual([...(await prisma.nodes(siblings)).entries()].sort());
      // 75 leaves: the first two blocks of 32 are complete, so their leaves get all five.
      if (index < 64) {
        expect(lowerNodes.size).toBe(5);
        complete++;
      }
    }
    expect(complete).toBeGreaterThan(0);
  });

  it("reads the single rows exactly as Prisma does", async () => {
    const { attestation } = (await prisma.bundleRows(ids[3]!, m.tenantId))!;
    expect(await sqlite.attestation(ids[3]!, m.tenantId)).toEqual(attestation);
    expect(await sqlite.issuer(m.issuerId)).toEqual(await prisma.issuer(m.issuerId));
    expect(await sqlite.signingKey(m.kid)).toEqual(await prisma.signingKey(m.kid));
    expect(await sqlite.latestCheckpoint()).toEqual(await prisma.latestCheckpoint());
    expect(await sqlite.issuer("nobody")).toBeNull();
  });

  it("finds no bundle for an unknown id or another tenant's attestation", async () => {
    expect(await sqlite.bundleRows("00000000-0000-7000-8000-000000000000", m.tenantId)).toBeNull();
    expect(await sqlite.bundleRows(ids[0]!, "another-tenant")).toBeNull();
    expect(await prisma.bundleRows(ids[0]!, "another-tenant")).toBeNull();
  });

  it("answers many concurrent reads each with its own rows", async () => {
    const got = await Promise.all(ids.map((id) => sqlite.bundleRows(id, m.tenantId)));
    expect(got.map((r) => r?.attestation.id)).toEqual(ids);
    expect(new Set(got.map((r) => Number(r?.attestation.logIndex))).size).toBe(ids.length);
  });

  it("sees a commit at once", async () => {
    const e = m.entry();
    expect(await sqlite.attestation(e.row.id, m.tenantId)).toBeNull();
    await m.sequencer.getSequencer().append(e);
    expect((await sqlite.attestation(e.row.id, m.tenantId))?.id).toBe(e.row.id);
  });
});
