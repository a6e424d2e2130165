// The append transaction's cases, run against each database (log-append.test.ts on a SQLite
// file, log-append.pg.test.ts on PostgreSQL): a batch is all-or-nothing, a failure rejects its
// waiters and leaves the log appendable, concurrent appends stay contiguous, an entry's own
// rows commit with it and a refused entry fails alone, the quota holds exactly.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { TestLog } from "../test-support/test-log";

/** The cases against the log `log()` returns (opened by the caller's beforeAll). */
export function appendCases(name: string, log: () => TestLog): void {
  const entry = (id?: string) => log().entry(id);

  async function state() {
    const read = log().db.getDb().read;
    return {
      size: Number((await read.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize),
      attestations: await read.attestation.count(),
      nodes: await read.logNode.count(),
      checkpoints: await read.checkpoint.count(),
    };
  }

  describe(`log append transaction (${name})`, () => {
    it("writes a batch entirely: attestations, leaves and nodes, one checkpoint", async () => {
      const before = await state();
      const id = await log().identity.getLogIdentity();
      const outcomes = await log()
        .store.getStore()
        .append((w) => log().append.appendBatch(w, id, [entry(), entry(), entry()]));
      const after = await state();
      expect(outcomes).toEqual([0, 1, 2].map((i) => ({ logIndex: before.size + i })));
      expect(after).toMatchObject({ size: before.size + 3, attestations: before.attestations + 3, checkpoints: before.checkpoints + 1 });
      expect(after.nodes).toBeGreaterThan(before.nodes + 2);
    });

    it("extends the tree from the frontier it left when the head is where it left it, and from the stored nodes when not", async () => {
      const id = await log().identity.getLogIdentity();
      const store = log().store.getStore();
      const memo: import("./log-append").FrontierMemo = { committed: null, pending: null };
      let nodeReads = 0;
      const counting = (w: import("../store/types").LogWriter) => {
        const nodes = w.nodes.bind(w);
        w.nodes = (positions) => {
          nodeReads++;
          return nodes(positions);
        };
        return w;
      };
      // The log's root against the one its stored nodes give at its head.
      const storedRootMatches = async () => {
        const { frontierPositions, rootFromFrontier, nodeKey } = await import("../merkle/merkle-tree");
        const { storedNode, shardOf, localOf } = await import("../merkle/positions");
        const head = await log()
          .db.getDb()
          .read.log.findUniqueOrThrow({ where: { id: 1 } });
        const at = Number(head.treeSize);
        const positions = frontierPositions(localOf(at)).map((p) => storedNode(shardOf(at), p));
        const stored = await store.reads.nodes(positions);
        const root = rootFromFrontier(positions.map((p) => stored.get(nodeKey(p.level, p.index))!));
        return Buffer.from(root).equals(Buffer.from(head.rootHash!));
      };
      await store.append((w) => log().append.appendBatch(counting(w), id, [entry(), entry()], memo));
      expect(nodeReads).toBe(1);
      const size = (await state()).size;
      expect(memo.pending?.end).toBe(size);
      memo.committed = memo.pending;
      // The head is where this memo left it: no node read.
      await store.append((w) => log().append.appendBatch(counting(w), id, [entry()], memo));
      expect(nodeReads).toBe(1);
      expect(await storedRootMatches()).toBe(true);
      // Another writer moved the head: the memo is not used.
      await store.append((w) => log().append.appendBatch(w, id, [entry()]));
      await store.append((w) => log().append.appendBatch(counting(w), id, [entry()], memo));
      expect(nodeReads).toBe(2);
      expect(await storedRootMatches()).toBe(true);
    });

    it("writes nothing of a batch that fails midway, and the log stays appendable", async () => {
      const id = await log().identity.getLogIdentity();
      const dup = crypto.randomUUID();
      await log()
        .store.getStore()
        .append((w) => log().append.appendBatch(w, id, [entry(dup)]));
      const before = await state();
      // The second entry repeats an id: its insert fails after the first row was written.
      await expect(
        log()
          .store.getStore()
          .append((w) => log().append.appendBatch(w, id, [entry(), entry(dup)])),
      ).rejects.toThrow();
      expect(await state()).toEqual(before);
      await log()
        .store.getStore()
        .append((w) => log().append.appendBatch(w, id, [entry()]));
      expect((await state()).size).toBe(before.size + 1);
    });

    it("rejects every waiter of a failed group commit and resolves the next batch", async () => {
      const seq = log().sequencer.getSequencer();
      const dup = crypto.randomUUID();
      await seq.append(entry(dup));
      const before = await state();
      const results = await Promise.allSettled([seq.append(entry()), seq.append(entry(dup)), seq.append(entry())]);
      // The three arrived in one turn: one batch, one transaction, rolled back for all.
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(await state()).toEqual(before);
      expect(await seq.append(entry())).toBe(before.size);
    });

    it("is idle only once every queued unit has been answered, including units queued while it waited", async () => {
      const seq = log().sequencer.getSequencer();
      const answered: number[] = [];
      const first = Array.from({ length: 50 }, (_, i) => seq.append(entry()).then(() => answered.push(i)));
      const idle = seq.idle().then(() => answered.length);
      // Queued after idle() began waiting, while the first batch is being written.
      const late = seq.append(entry()).then(() => answered.push(50));
      expect(await idle).toBe(51);
      await Promise.all([...first, late]);
      await seq.idle(); // nothing queued: resolves at once
      expect(answered).toHaveLength(51);
    });

    it("gives concurrent appends distinct, contiguous indexes", async () => {
      const seq = log().sequencer.getSequencer();
      const before = (await state()).size;
      const indexes = await Promise.all(Array.from({ length: 200 }, () => seq.append(entry())));
      expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => before + i));
    });

    it("logs a group as one: contiguous indexes in order beside single entries, admitted or refused whole", async () => {
      const seq = log().sequencer.getSequencer();
      const before = await state();
      const group = (n: number, refuse: boolean, seen: number[]) => ({
        entries: Array.from({ length: n }, () => entry()),
        effects: {
          admit: async (_w: unknown, _batch: unknown, logIndex: number) => {
            if (refuse) throw new Error("refused group");
            seen.push(logIndex);
          },
        },
      });
      const seen: number[] = [];
      const results = await Promise.allSettled([
        seq.append(entry()),
        seq.append(group(5, false, seen)),
        seq.append(group(4, true, seen)),
        seq.append(entry()),
        seq.append(group(3, false, seen)),
      ]);
      expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
        before.size,
        before.size + 1,
        "refused group",
        before.size + 6,
        before.size + 7,
      ]);
      expect(seen).toEqual([before.size + 1, before.size + 7]);
      expect(await state()).toMatchObject({ size: before.size + 10, attestations: before.attestations + 10 });
      const logged = await log()
        .db.getDb()
        .read.attestation.findMany({ where: { logIndex: { gte: before.size } }, orderBy: { logIndex: "asc" } });
      expect(logged.map((a) => Number(a.logIndex))).toEqual(Array.from({ length: 10 }, (_, i) => before.size + i));
    });

    it("appends a group of more than one transaction's worth of entries alone, in one transaction", async () => {
      const seq = log().sequencer.getSequencer();
      const before = await state();
      const big = { entries: Array.from({ length: 1000 }, () => entry()) };
      const [single, first] = await Promise.all([seq.append(entry()), seq.append(big), seq.append(entry())]);
      expect(single).toBe(before.size);
      expect(first).toBe(before.size + 1);
      // Three units, at most 1,000 entries a transaction: the group has a checkpoint of its own.
      expect(await state()).toMatchObject({ size: before.size + 1002, checkpoints: before.checkpoints + 3 });
    });

    it("commits an entry's own rows with it; a refused entry fails alone and the rest of its batch is logged", async () => {
      const seq = log().sequencer.getSequencer();
      const before = await state();
      const tenantId = log().tenantId;
      const withEffects = (key: string, refuse: boolean) => {
        const e = entry();
        e.effects = {
          admit: async (w, batch) => {
            if (refuse) throw new Error(`refused ${key}`);
            if (batch.has(key) || (await w.idempotencyRecord(tenantId, key))) throw new Error(`taken ${key}`);
            batch.set(key, true);
          },
          write: (w) =>
            w.putIdempotencyRecord({
              tenantId,
              key,
              requestHash: "h",
              status: 201,
              response: JSON.stringify({ id: e.row.id }),
              createdAt: new Date(),
            }),
          // Declared, so a store that can reads the batch's keys at once (pg-store) does.
          idempotencyKey: { tenantId, key },
        };
        return e;
      };
      const k = () => crypto.randomUUID();
      const [a, b, c, d] = [k(), k(), k(), k()];
      const results = await Promise.allSettled([
        seq.append(withEffects(a, false)),
        seq.append(withEffects(b, true)),
        seq.append(withEffects(c, false)),
        seq.append(withEffects(c, false)), // the same key again, in the same batch
        seq.append(withEffects(d, false)),
      ]);
      expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
        before.size,
        `refused ${b}`,
        before.size + 1,
        `taken ${c}`,
        before.size + 2,
      ]);
      expect(await state()).toMatchObject({
        size: before.size + 3,
        attestations: before.attestations + 3,
        checkpoints: before.checkpoints + 1,
      });
      const records = await log()
        .db.getDb()
        .read.idempotencyRecord.findMany({ where: { tenantId, key: { in: [a, b, c, d] } } });
      expect(records.map((r) => r.key).sort()).toEqual([a, c, d].sort());
      // Committed: a later batch sees the key taken.
      await expect(seq.append(withEffects(a, false))).rejects.toThrow(`taken ${a}`);
    });

    it("writes nothing of a batch whose entry fails to write its own rows", async () => {
      const seq = log().sequencer.getSequencer();
      const before = await state();
      const records = await log().db.getDb().read.idempotencyRecord.count();
      const ok = entry();
      ok.effects = {
        write: (w) =>
          w.putIdempotencyRecord({
            tenantId: log().tenantId,
            key: crypto.randomUUID(),
            requestHash: "h",
            status: 201,
            response: "{}",
            createdAt: new Date(),
          }),
      };
      const broken = entry();
      broken.effects = {
        write: (w) =>
          w.insertProtection({
            id: crypto.randomUUID(),
            tenantId: log().tenantId,
            userId: "no such user",
            attestationId: broken.row.id,
            contentHash: "x",
            title: null,
            description: null,
            contentType: null,
            fileName: null,
            fileSize: null,
            category: "other",
            visibility: "private",
            aiMetadata: null,
            createdAt: new Date(),
          }),
      };
      const results = await Promise.allSettled([seq.append(ok), seq.append(broken)]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect(await state()).toEqual(before);
      expect(await log().db.getDb().read.idempotencyRecord.count()).toBe(records);
    });
    it.each([
      ["read by each admit", false],
      ["read ahead with the lock (usageKey)", true],
    ])("takes usage units exactly up to the limit, refusing the entries beyond it alone: counters %s", async (_, readAhead) => {
      const seq = log().sequencer.getSequencer();
      const before = await state();
      const userId = crypto.randomUUID();
      const month = "2026-11";
      const taking = (limit: number | null) => {
        const e = entry();
        e.effects = {
          admit: async (w) => {
            if (!(await w.takeUsageUnit(userId, month, limit))) throw new Error("quota");
          },
          ...(readAhead ? { usageKey: { userId, month } } : {}),
        };
        return e;
      };
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => seq.append(taking(5))));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
      expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.message)).toEqual([
        "quota",
        "quota",
        "quota",
      ]);
      const counter = () =>
        log()
          .db.getDb()
          .read.usageCounter.findUniqueOrThrow({ where: { userId_month: { userId, month } } });
      expect((await counter()).count).toBe(5);
      // No limit: always taken, and counted.
      await seq.append(taking(null));
      expect((await counter()).count).toBe(6);
      // A limit of zero takes nothing and writes no row.
      await expect(seq.append(taking(0))).rejects.toThrow("quota");
      expect((await state()).size).toBe(before.size + 6);
    });

    it("logs a sealed entry: its row keeps the attestation and the seal, its leaf is the sealed leaf", async () => {
      const [{ createAttestation }, { storedLeafHash, storedSealedLeaf }] = await Promise.all([
        import("../domain/attestations"),
        import("./stored-leaf"),
      ]);
      const payload = { content_hash: `sha256:${crypto.randomBytes(32).toString("hex")}` };
      const view = await createAttestation({ tenantId: log().tenantId, issuerId: log().issuerId, payload, sealed: true });
      expect(view.sealed).toBe(true);
      const read = log().db.getDb().read;
      const row = await read.attestation.findUniqueOrThrow({ where: { id: view.id } });
      expect(JSON.parse(row.payload)).toEqual(payload);
      expect(row.seal).not.toBeNull();
      // The raw store reads the seal as Prisma does.
      expect((await log().store.getStore().reads.attestation(view.id, log().tenantId))?.seal).toBe(row.seal);
      const leaf = await read.logNode.findUniqueOrThrow({ where: { level_index: { level: 0, index: row.logIndex } } });
      // The hash the append wrote is the reference's sealed leaf, not the row's own leaf.
      expect(Buffer.from(leaf.hash)).toEqual(Buffer.from(storedLeafHash(row)));
      expect(Buffer.from(leaf.hash)).not.toEqual(Buffer.from(storedLeafHash({ ...row, seal: null })));
      const sealed = storedSealedLeaf({ ...row, seal: row.seal! });
      expect(sealed.issuer_id).not.toBe(log().issuerId);
      expect(sealed.kid).not.toBe(view.kid);
      // hallmark.sealed/v2: an id of its own (a random UUIDv4), the attestation's second.
      expect(sealed.payload.type).toBe("hallmark.sealed/v2");
      expect(sealed.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(sealed.id).not.toBe(view.id);
      expect(sealed.created_at).toBe(`${view.created_at.slice(0, 19)}.000Z`);
      // The sealing key is valid from a whole second, so the sealed leaf's second is within it.
      const sealingKey = await read.signingKey.findUniqueOrThrow({ where: { kid: sealed.kid } });
      expect(sealingKey.notBefore.getTime() % 1000).toBe(0);
      expect(Date.parse(sealed.created_at)).toBeGreaterThanOrEqual(sealingKey.notBefore.getTime());
      // Another sealed entry of the same payload: the same sealing issuer and key, its own commitment (its own salt).
      const other = await createAttestation({ tenantId: log().tenantId, issuerId: log().issuerId, payload, sealed: true });
      const second = await read.attestation.findUniqueOrThrow({ where: { id: other.id } });
      const again = storedSealedLeaf({ ...second, seal: second.seal! });
      expect([again.issuer_id, again.kid]).toEqual([sealed.issuer_id, sealed.kid]);
      expect(again.payload.commitment).not.toBe(sealed.payload.commitment);
      expect(again.id).not.toBe(sealed.id);
    });
  });
}
