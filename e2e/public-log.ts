// The log as a stranger reads it: the signed checkpoint, every leaf from the C2SP entry bundles,
// issuer keys by kid, and proofs assembled from those public parts alone (what anyone can post
// to POST /v1/verifications, hand to `npm run verify` or drop on /verify, with no account).
// Shared by the REST and browser suites; `base` is the server's URL.
import { parsePublicKeyPem, verifyCheckpoint } from "@/lib/verify";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { bytesToHex, utf8Decode } from "@/lib/verify/encoding";
import { refMth, refPath } from "@/lib/verify/testing/merkle-reference";
import { decodeEntryBundle, tilePath } from "@/lib/verify/tiles";
import { formatTlogProof } from "@/lib/verify/tlog-proof";

export type Leaf = { id: string; issuer_id: string; kid: string; payload: Record<string, unknown>; created_at: string; signature: string };

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** The newest checkpoint note once the tree holds more than `atLeast` leaves (waits up to 10 s), and its size. */
export async function checkpointCovering(base: string, atLeast: number): Promise<{ note: string; size: number }> {
  const info = (await (await fetchOk(`${base}/v1/log`)).json()) as { public_key: string; origin: string };
  const key = { publicKey: parsePublicKeyPem(info.public_key), origin: info.origin };
  for (let i = 0; ; i++) {
    const note = await (await fetchOk(`${base}/v1/log/checkpoint`)).text();
    const size = verifyCheckpoint(note, key).treeSize;
    if (size > atLeast || i >= 100) return { note, size };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The leaf data of the tree's first `size` entries, from the entry bundles (full tiles, then the partial one). */
export async function leafDataUpTo(base: string, size: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let n = 0; n * 256 < size; n++) {
    const width = Math.min(256, size - n * 256);
    const res = await fetchOk(`${base}/v1/log/${tilePath({ level: "entries", index: n, width })}`);
    out.push(...decodeEntryBundle(new Uint8Array(await res.arrayBuffer()), width));
  }
  return out;
}

/** Every leaf of the published tree once it holds more than `atLeast`, parsed. */
export async function publishedLeaves(base: string, atLeast: number): Promise<Leaf[]> {
  const { size } = await checkpointCovering(base, atLeast);
  return (await leafDataUpTo(base, size)).map((d) => JSON.parse(utf8Decode(d)) as Leaf);
}

/** Entry `index` as the log publishes it: its leaf data, an inclusion proof (RFC 9162, the reference implementation) and the checkpoint. */
async function publishedEntry(base: string, index: number) {
  const { note, size } = await checkpointCovering(base, index);
  const leaves = await leafDataUpTo(base, size);
  return { note, size, data: leaves[index]!, root: refMth(leaves), proof: refPath(index, leaves) };
}

/**
 * A proof bundle of entry `index` made only of what the log publishes: the leaf from the tiles,
 * its signing key from /v1/log/keys/{kid}, the inclusion proof and the checkpoint. For a sealed
 * entry, it is the sealed leaf alone: no opening.
 */
export async function strangersBundle(base: string, index: number): Promise<Record<string, unknown>> {
  const e = await publishedEntry(base, index);
  const leaf = JSON.parse(utf8Decode(e.data)) as Leaf;
  const key = await (await fetchOk(`${base}/v1/log/keys/${encodeURIComponent(leaf.kid)}`)).json();
  const root = bytesToHex(e.root);
  const origin = e.note.slice(0, e.note.indexOf("\n"));
  const signature = parseSignedNote(e.note).signatures.find((s) => s.name === origin)!.base64;
  return {
    attestation: { ...leaf, status: "VALID", log_index: index },
    issuer: { id: leaf.issuer_id },
    key,
    inclusion_proof: { log_index: index, tree_size: e.size, root_hash: root, hashes: e.proof.map(bytesToHex) },
    signed_tree_head: { tree_size: e.size, root_hash: root, signature, origin, checkpoint: e.note },
  };
}

/** A C2SP tlog-proof of entry `index` made only of what the log publishes (its extra line the leaf data). */
export async function strangersTlogProof(base: string, index: number): Promise<string> {
  const e = await publishedEntry(base, index);
  return formatTlogProof({ extra: e.data, index, proof: e.proof, checkpoint: e.note });
}

/** The first leaf whose JSON holds `secret` (a hex or base64 value, an id, a title, an e-mail address), if any. */
export const leafHolding = (leaves: Leaf[], secret: string): Leaf | undefined => leaves.find((l) => JSON.stringify(l).includes(secret));
