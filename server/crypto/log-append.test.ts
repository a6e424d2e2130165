// The append transaction against a real SQLite file: a batch is all-or-nothing, a failure
// rejects its waiters and leaves the log appendable, and concurrent appends stay contiguous.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteLog, useTemporaryDataDir, type SqliteLog } from "../test-support/sqlite-log";

const dir = useTemporaryDataDir("append");
let m: SqliteLog;
const entry = (id?: string) => m.entry(id);

async function state() {
  const read = m.db.getDb().read;
  return {
    size: Number((await read.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize),
    attestations: await read.attestation.count(),
    nodes: await read.logNode.count(),
    checkpoints: await read.checkpoint.count(),
  };
}

beforeAll(async () => {
  m = await openSqliteLog(dir);
}, 60_000);

afterAll(async () => {
  await m?.close();
});

describe("log append transaction", () => {
  it("writes a batch entirely: attestations, leaves and nodes, one checkpoint", async () => {
    const before = await state();
    const id = await m.identity.getLogIdentity();
    const first = await m.store.getStore().append((w) => m.append.appendBatch(w, id, [entry(), entry(), entry()]));
    const after = await state();
    expect(first).toBe(before.size);
    expect(after).toMatchObject({ size: before.size + 3, attestations: before.attestations + 3, checkpoints: before.checkpoints + 1 });
    expect(after.nodes).toBeGreaterThan(before.nodes + 2);
  });

  it("writes nothing of a batch that fails midway, and the log stays appendable", async () => {
    const id = await m.identity.getLogIdentity();
    const dup = crypto.randomUUID();
    await m.store.getStore().append((w) => m.append.appendBatch(w, id, [entry(dup)]));
    const before = await state();
    // The second entry repeats an id: its insert fails after the first row was written.
    await expect(m.store.getStore().append((w) => m.append.appendBatch(w, id, [entry(), entry(dup)]))).rejects.toThrow();
    expect(await state()).toEqual(before);
    await m.store.getStore().append((w) => m.append.appendBatch(w, id, [entry()]));
    expect((await state()).size).toBe(before.size + 1);
  });

  it("rejects every waiter of a failed group commit and resolves the next batch", async () => {
    const seq = m.sequencer.getSequencer();
    const dup = crypto.randomUUID();
    await seq.append(entry(dup));
    const before = await state();
    const results = await Promise.allSettled([seq.append(entry()), seq.append(entry(dup)), seq.append(entry())]);
    // The three arrived in one turn: one batch, one transaction, rolled back for all.
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await state()).toEqual(before);
    expect(await seq.append(entry())).toBe(before.size);
  });

  it("gives concurrent appends distinct, contiguous indexes", async () => {
    const seq = m.sequencer.getSequencer();
    const before = (await state()).size;
    const indexes = await Promise.all(Array.from({ length: 200 }, () => seq.append(entry())));
    expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => before + i));
  });
});
