// The log as a stranger reads it: the signed checkpoint, every leaf from the C2SP entry bundles,
// issuer keys by kid, and a proof bundle assembled from those public parts alone (what anyone
// can post to POST /v1/verifications or hand to `npm run verify`, with no account).
import { expect } from "vitest";
import { parsePublicKeyPem, verifyCheckpoint } from "@/lib/verify";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { bytesToHex, utf8Decode } from "@/lib/verify/encoding";
import { refMth, refPath } from "@/lib/verify/testing/merkle-reference";
import { decodeEntryBundle, tilePath } from "@/lib/verify/tiles";
import { api, baseUrl, logInfo } from "./helpers";

export type Leaf = { id: string; issuer_id: string; kid: string; payload: Record<string, unknown>; created_at: string; signature: string };

/** The newest checkpoint note once the tree holds more than `atLeast` leaves (waits up to 10 s), and its size. */
export async function checkpointCovering(atLeast: number): Promise<{ note: string; size: number }> {
  const info = await logInfo();
  const key = { publicKey: parsePublicKeyPem(info.public_key), origin: info.origin };
  for (let i = 0; ; i++) {
    const note = (await api("/v1/log/checkpoint")).text;
    const size = verifyCheckpoint(note, key).treeSize;
    if (size > atLeast || i >= 100) return { note, size };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The leaf data of the tree's first `size` entries, from the entry bundles (full tiles, then the partial one). */
export async function leafDataUpTo(size: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let n = 0; n * 256 < size; n++) {
    const width = Math.min(256, size - n * 256);
    const res = await fetch(`${baseUrl}/v1/log/${tilePath({ level: "entries", index: n, width })}`);
    expect(res.status).toBe(200);
    out.push(...decodeEntryBundle(new Uint8Array(await res.arrayBuffer()), width));
  }
  return out;
}

/** Every leaf of the published tree once it holds more than `atLeast`, parsed. */
export async function publishedLeaves(atLeast: number): Promise<Leaf[]> {
  const { size } = await checkpointCovering(atLeast);
  return (await leafDataUpTo(size)).map((d) => JSON.parse(utf8Decode(d)) as Leaf);
}

/**
 * A proof bundle of entry `index` made only of what the log publishes: the leaf from the tiles,
 * its signing key from /v1/log/keys/{kid}, an inclusion proof computed from every leaf (RFC 9162,
 * by the reference implementation) and the checkpoint. For a sealed entry, it is the sealed leaf
 * alone: no opening.
 */
export async function strangersBundle(index: number): Promise<Record<string, unknown>> {
  const { note, size } = await checkpointCovering(index);
  const leaves = await leafDataUpTo(size);
  const leaf = JSON.parse(utf8Decode(leaves[index]!)) as Leaf;
  const key = await api(`/v1/log/keys/${encodeURIComponent(leaf.kid)}`);
  expect(key.status, key.text).toBe(200);
  const root = bytesToHex(refMth(leaves));
  const origin = note.slice(0, note.indexOf("\n"));
  const signature = parseSignedNote(note).signatures.find((s) => s.name === origin)!.base64;
  return {
    attestation: { ...leaf, status: "VALID", log_index: index },
    issuer: { id: leaf.issuer_id },
    key: key.body,
    inclusion_proof: { log_index: index, tree_size: size, root_hash: root, hashes: refPath(index, leaves).map(bytesToHex) },
    signed_tree_head: { tree_size: size, root_hash: root, signature, origin, checkpoint: note },
  };
}

/** The first leaf whose JSON holds `secret` (a hex or base64 value, an id, a title, an e-mail address), if any. */
export const leafHolding = (leaves: Leaf[], secret: string): Leaf | undefined => leaves.find((l) => JSON.stringify(l).includes(secret));
