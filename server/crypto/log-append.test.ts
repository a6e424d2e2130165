// The append transaction against a real SQLite file: a batch is all-or-nothing, a failure
// rejects its waiters and leaves the log appendable, and concurrent appends stay contiguous.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-append-"));
process.env.HALLMARK_DATA_DIR = dir;
process.env.DATABASE_URL = `file:${path.join(dir, "hallmark.db")}`;
process.env.HALLMARK_MASTER_KEY = crypto.randomBytes(32).toString("hex");
process.env.HALLMARK_LOG_ORIGIN = "hallmark-unit/append";

type Modules = {
  db: typeof import("../db");
  store: typeof import("../store");
  append: typeof import("./log-append");
  identity: typeof import("./log-identity");
  sequencer: typeof import("./sequencer");
  tenants: typeof import("../domain/tenants");
};
let m: Modules;
let tenantId: string;

function entry(id = crypto.randomUUID()) {
  return {
    row: { id, tenantId, issuerId: "issuer", kid: "kid", payload: "{}", signature: "sig", createdAt: new Date() },
    leafHash: new Uint8Array(crypto.createHash("sha256").update(id).digest()),
  };
}

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
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], { env: process.env, stdio: "ignore" });
  m = {
    db: await import("../db"),
    store: await import("../store"),
    append: await import("./log-append"),
    identity: await import("./log-identity"),
    sequencer: await import("./sequencer"),
    tenants: await import("../domain/tenants"),
  };
  // Attestations reference a tenant and issuer: make real ones, then relax nothing else.
  tenantId = (await m.tenants.createOrganization({ name: "unit" })).tenantId;
  await m.db.getDb().write((tx) =>
    tx.issuer.create({
      data: { id: "issuer", tenantId, name: "i", domain: "i.example.org", status: "PENDING", trustLevel: "BASIC", createdAt: new Date(), updatedAt: new Date() },
    }),
  );
  await m.identity.getLogIdentity();
}, 60_000);

afterAll(async () => {
  await m?.db.getDb().close();
  fs.rmSync(dir, { recursive: true, force: true });
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
