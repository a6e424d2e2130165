// The append against an in-memory store that holds the log's storage contract to the letter, in
// the way Sunlight tests its log: a node, attestation or checkpoint written twice fails the test
// (they are immutable); faults are injected on both sides of the commit, so "failed, not
// persisted" and "failed, persisted" are told apart; and after every step the whole log is
// checked against a tree rebuilt from scratch (merkle-reference).
import crypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyCheckpoint } from "@/lib/verify";
import { verifierKey } from "@/lib/verify/checkpoint";
import { bytesToHex } from "@/lib/verify/encoding";
import { emptyRootHash } from "@/lib/verify/merkle";
import { refMth } from "@/lib/verify/testing/merkle-reference";
import type { AttestationInsert, Checkpoint, EntryWriter, LogWriter, NodeHashes } from "../store/types";
import { appendBatch, type LogEntry } from "./log-append";
import type { LogIdentity } from "./log-identity";
import { storedLeafData, storedLeafHash } from "./stored-leaf";
import { nodeKey, type NodePosition, type StoredNode } from "../merkle/merkle-tree";

type Fault = "none" | "mid-write" | "before-commit" | "after-commit";

class ImmutableRewrite extends Error {}

/**
 * The store's contract: `append` runs its function against a transaction; its writes become
 * visible together when it commits and are durable once it returns; the head is locked for the
 * whole transaction (appends are serialised); node, attestation and checkpoint rows are never
 * rewritten.
 */
class MemoryStore {
  size = 0;
  root = emptyRootHash();
  readonly attestations = new Map<number, AttestationInsert & { logIndex: bigint }>();
  readonly nodes = new Map<string, Uint8Array>();
  readonly checkpoints = new Map<number, Checkpoint>();
  fault: Fault = "none";
  private lock: Promise<unknown> = Promise.resolve();

  append<T>(fn: (w: LogWriter) => Promise<T>): Promise<T> {
    const run = this.lock.then(() => this.transaction(fn));
    this.lock = run.catch(() => {});
    return run;
  }

  private async transaction<T>(fn: (w: LogWriter) => Promise<T>): Promise<T> {
    const tx = {
      attestations: [] as (AttestationInsert & { logIndex: bigint })[],
      nodes: [] as StoredNode[],
      checkpoints: [] as Checkpoint[],
      head: null as null | { size: number; root: Uint8Array },
    };
    const fault = this.fault;
    const unused = () => {
      throw new Error("entry effects are not part of this test");
    };
    const w: LogWriter = {
      entries: {
        idempotencyRecord: unused,
        putIdempotencyRecord: unused,
        takeUsageUnit: unused,
        insertProtection: unused,
      } as unknown as EntryWriter,
      lockHead: async () => this.size,
      nodes: async (positions: readonly NodePosition[]) => {
        const out: NodeHashes = new Map();
        for (const p of positions) {
          const h = this.nodes.get(nodeKey(p.level, p.index));
          if (h) out.set(nodeKey(p.level, p.index), h);
        }
        return out;
      },
      insertAttestations: async (rows) => {
        if (fault === "mid-write") throw new Error("injected: the write failed midway (not persisted)");
        tx.attestations.push(...(rows as (AttestationInsert & { logIndex: bigint })[]));
      },
      insertNodes: async (nodes) => void tx.nodes.push(...nodes),
      insertCheckpoint: async (cp) => void tx.checkpoints.push(cp),
      setHead: async (size, root) => void (tx.head = { size, root }),
    };
    const result = await fn(w);
    if (fault === "before-commit") throw new Error("injected: the commit failed (not persisted)");
    for (const a of tx.attestations) this.put(this.attestations, Number(a.logIndex), a, "attestation");
    for (const n of tx.nodes) this.put(this.nodes, nodeKey(n.level, n.index), n.hash, "node");
    for (const c of tx.checkpoints) this.put(this.checkpoints, Number(c.treeSize), c, "checkpoint");
    if (tx.head) ({ size: this.size, root: this.root } = tx.head);
    if (fault === "after-commit") throw new Error("injected: the answer was lost after the commit (persisted)");
    return result;
  }

  private put<K, V>(map: Map<K, V>, key: K, value: V, what: string): void {
    if (map.has(key)) throw new ImmutableRewrite(`${what} ${String(key)} was written twice`);
    map.set(key, value);
  }
}

function identity(): LogIdentity {
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
  const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(-32));
  const origin = "memory.test/log";
  const vkey = verifierKey(origin, raw);
  return {
    origin,
    publicKey: raw,
    publicKeyPem: "",
    keyIdHex: vkey.split("+")[1]!,
    verifierKey: vkey,
    signsFrom: null,
    signsUntil: null,
    privateKey,
    overlapping: [],
    retired: [],
    shard: 0,
  };
}

let n = 0;
function entry(): LogEntry {
  const row = {
    id: crypto.randomUUID(),
    tenantId: "t",
    issuerId: "i",
    kid: "k",
    payload: JSON.stringify({ n: n++ }),
    signature: "c2ln",
    createdAt: new Date(1_700_000_000_000 + n),
  };
  return { row, leafHash: storedLeafHash(row) };
}

/** The whole log against a tree rebuilt from its attestations with the RFC's definition. */
function checkWholeLog(store: MemoryStore, id: LogIdentity): void {
  const leaves: Uint8Array[] = [];
  for (let i = 0; i < store.size; i++) {
    const a = store.attestations.get(i);
    expect(a, `attestation ${i}`).toBeDefined();
    leaves.push(storedLeafData(a!));
  }
  expect(store.attestations.size).toBe(store.size);
  expect(bytesToHex(store.root)).toBe(bytesToHex(refMth(leaves)));
  // Every perfect subtree inside the tree is stored, with the right hash, and nothing else is.
  // Level by level with node:crypto: level k, index j hashes levels k-1's 2j and 2j+1.
  let expectedNodes = 0;
  let row = leaves.map((l) => crypto.createHash("sha256").update(Uint8Array.of(0)).update(l).digest());
  for (let level = 0; row.length > 0; level++) {
    row.forEach((want, j) => {
      expectedNodes++;
      expect(bytesToHex(store.nodes.get(nodeKey(level, j)) ?? new Uint8Array()), `node ${level}:${j}`).toBe(want.toString("hex"));
    });
    row = Array.from({ length: Math.floor(row.length / 2) }, (_, j) =>
      crypto
        .createHash("sha256")
        .update(Uint8Array.of(1))
        .update(row[2 * j]!)
        .update(row[2 * j + 1]!)
        .digest(),
    );
  }
  expect(store.nodes.size).toBe(expectedNodes);
  // Every checkpoint verifies and has the root of the tree of its size.
  for (const [size, cp] of store.checkpoints) {
    const v = verifyCheckpoint(cp.note, { publicKey: id.publicKey, origin: id.origin });
    expect(v.treeSize).toBe(size);
    expect(bytesToHex(v.rootHash)).toBe(bytesToHex(refMth(leaves.slice(0, size))));
  }
  if (store.size > 0) expect(store.checkpoints.has(store.size)).toBe(true);
}

describe("the log's storage contract, in memory", () => {
  it("holds under any sequence of appends and faults, and is told which failures persisted", async () => {
    const faults = fc.constantFrom<Fault>("none", "none", "mid-write", "before-commit", "after-commit");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ batch: fc.integer({ min: 1, max: 6 }), fault: faults }), { minLength: 1, maxLength: 25 }),
        async (steps) => {
          const store = new MemoryStore();
          const id = identity();
          for (const step of steps) {
            const before = store.size;
            store.fault = step.fault;
            const entries = Array.from({ length: step.batch }, entry);
            const outcome = await store
              .append((w) => appendBatch(w, id, entries))
              .then(
                (o) => ({ ok: true as const, o }),
                (err: Error) => {
                  if (err instanceof ImmutableRewrite) throw err;
                  return { ok: false as const, err };
                },
              );
            const persisted = step.fault === "none" || step.fault === "after-commit";
            expect(outcome.ok).toBe(step.fault === "none");
            if (outcome.ok) expect(outcome.o).toEqual(entries.map((_, i) => ({ logIndex: before + i })));
            expect(store.size).toBe(persisted ? before + step.batch : before);
            // A persisted failure's entries are in the log (a retry would add them again: the
            // caller must treat "failed" as "maybe persisted"); an unpersisted one's are not.
            for (const [i, e] of entries.entries()) expect(store.attestations.get(before + i)?.id === e.row.id).toBe(persisted);
            store.fault = "none";
            checkWholeLog(store, id);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it("refuses to rewrite an immutable node: a store that let it would hide a forked tree", async () => {
    const store = new MemoryStore();
    const id = identity();
    await store.append((w) => appendBatch(w, id, [entry(), entry()]));
    // A head moved back by a bug: the next append would write nodes 0:1 and 1:0 again.
    store.size = 1;
    await expect(store.append((w) => appendBatch(w, id, [entry()]))).rejects.toThrow(ImmutableRewrite);
  });
});
