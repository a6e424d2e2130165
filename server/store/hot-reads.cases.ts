// The hot reads of a raw store (sqlite-store.ts, pg-store.ts) against the portable Prisma
// implementation on the same database: both must return exactly the same rows, so callers
// cannot tell which one serves them. Run by sqlite-store.test.ts and pg-store.test.ts.
import { expect, it } from "vitest";
import type { NodePosition } from "../merkle/merkle-tree";
import type { TestLog } from "../test-support/test-log";
import type { HotReads } from "./types";

export interface HotReadsUnderTest {
  m: TestLog;
  /** Attestations appended in the set-up, in order: 75 of them. */
  ids: string[];
  prisma: HotReads;
  reads: HotReads;
}

/** Appends the 75 attestations the cases read, and opens the Prisma reference on the same database. */
export async function setUpHotReads(m: TestLog): Promise<HotReadsUnderTest> {
  const seq = m.sequencer.getSequencer();
  const entries = Array.from({ length: 75 }, () => m.entry());
  await Promise.all(entries.map((e) => seq.append(e)));
  const { prismaStore } = await import("./prisma-store");
  return { m, ids: entries.map((e) => e.row.id), prisma: prismaStore(m.db.getDb()).reads, reads: m.store.getStore().reads };
}

/** The cases, inside the caller's describe, against what `get()` returns once its beforeAll ran. */
export function hotReadCases(get: () => HotReadsUnderTest): void {
  it("reads nodes in one call, more than one statement's worth, leaving out absent ones, exactly as Prisma does", async () => {
    const { reads, prisma } = get();
    const positions: NodePosition[] = [];
    for (let level = 0; level <= 7; level++) for (let index = 0; index < 12; index++) positions.push({ level, index });
    positions.push({ level: 0, index: 10_000 }); // beyond the log: absent
    const got = await reads.nodes(positions);
    expect(positions.length).toBeGreaterThan(64);
    expect(got.size).toBeGreaterThan(32);
    expect(got.has("0:10000")).toBe(false);
    expect([...got.entries()].sort()).toEqual([...(await prisma.nodes(positions)).entries()].sort());
    expect(await reads.nodes([])).toEqual(new Map());
  });

  it("reads a bundle's rows, with the newest checkpoint and the leaf's lower siblings, exactly as Prisma does, and no private key", async () => {
    const { m, ids, reads, prisma } = get();
    let complete = 0;
    for (const id of [ids[0]!, ids[40]!, ids[74]!]) {
      const { lowerNodes, ...rows } = (await reads.bundleRows(id, m.tenantId))!;
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

  it("reads the single rows exactly as Prisma does, dates to the millisecond", async () => {
    const { m, ids, reads, prisma } = get();
    const { attestation } = (await prisma.bundleRows(ids[3]!, m.tenantId))!;
    expect(await reads.attestation(ids[3]!, m.tenantId)).toEqual(attestation);
    expect(await reads.attestation(ids[3]!, "another-tenant")).toBeNull();
    expect(await reads.issuer(m.issuerId)).toEqual(await prisma.issuer(m.issuerId));
    expect(await reads.signingKey(m.kid)).toEqual(await prisma.signingKey(m.kid));
    expect(await reads.latestCheckpoint()).toEqual(await prisma.latestCheckpoint());
    expect(await reads.issuer("nobody")).toBeNull();
  });

  it("finds no bundle for an unknown id or another tenant's attestation", async () => {
    const { m, ids, reads, prisma } = get();
    expect(await reads.bundleRows("00000000-0000-7000-8000-000000000000", m.tenantId)).toBeNull();
    expect(await reads.bundleRows(ids[0]!, "another-tenant")).toBeNull();
    expect(await prisma.bundleRows(ids[0]!, "another-tenant")).toBeNull();
  });

  it("answers many concurrent reads each with its own rows", async () => {
    const { m, ids, reads } = get();
    const got = await Promise.all(ids.map((id) => reads.bundleRows(id, m.tenantId)));
    expect(got.map((r) => r?.attestation.id)).toEqual(ids);
    expect(new Set(got.map((r) => Number(r?.attestation.logIndex))).size).toBe(ids.length);
  });

  it("sees a commit at once", async () => {
    const { m, reads } = get();
    const e = m.entry();
    expect(await reads.attestation(e.row.id, m.tenantId)).toBeNull();
    await m.sequencer.getSequencer().append(e);
    expect((await reads.attestation(e.row.id, m.tenantId))?.id).toBe(e.row.id);
  });
}
