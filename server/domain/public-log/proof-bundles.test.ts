// Every proof bundle of a real SQLite log verifies: leaves of complete blocks (siblings read with
// the rows) and of the last, incomplete one (the rest read on demand), against the newest
// checkpoint, before and after the log grows (the right-edge cache per tree size).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexToBytes } from "@/lib/verify/encoding";
import { verifyInclusion } from "@/lib/verify/merkle";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../../test-support/test-log";

const dir = useTemporaryDataDir("bundles");
let m: TestLog;
const leaves = new Map<string, Uint8Array>();

async function append(n: number) {
  const entries = Array.from({ length: n }, () => m.entry());
  for (const e of entries) leaves.set(e.row.id, e.leafHash);
  await Promise.all(entries.map((e) => m.sequencer.getSequencer().append(e)));
}

async function verifyAll(size: number) {
  const { getProofBundle } = await import("./proof-bundles");
  const indexes = new Set<number>();
  for (const [id, leaf] of leaves) {
    const b = await getProofBundle({ tenantId: m.tenantId, id }, { witnessed: "required" });
    expect(b.inclusion_proof.tree_size).toBe(size);
    expect(b.signed_tree_head.tree_size).toBe(size);
    const ok = verifyInclusion(
      b.inclusion_proof.log_index,
      size,
      leaf,
      b.inclusion_proof.hashes.map(hexToBytes),
      hexToBytes(b.signed_tree_head.root_hash),
    );
    expect(ok, `leaf ${b.inclusion_proof.log_index} of ${size}`).toBe(true);
    indexes.add(b.inclusion_proof.log_index);
  }
  expect(indexes.size).toBe(size);
}

beforeAll(async () => {
  m = await openTestLog(dir);
}, 60_000);

afterAll(async () => {
  await m?.close();
});

describe("proof bundles on SQLite", () => {
  it("verify for every leaf, in complete blocks and in the last incomplete one, as the log grows", async () => {
    await append(75); // two complete blocks of 32, and 11 leaves of a third
    await verifyAll(75);
    await append(21); // the third block completes: 96, a size whose right edge differs
    await verifyAll(96);
    await append(1);
    await verifyAll(97);
  }, 60_000);
});
