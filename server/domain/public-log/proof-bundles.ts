import "server-only";
import { leafData } from "@/lib/verify/attestation";
import { bytesToBase64, utf8Encode } from "@/lib/verify/encoding";
import { canonicalJson } from "@/lib/verify/jcs";
import { storedSeal } from "../../crypto/sealed-leaf";
import { canonicalFieldsOf } from "../../crypto/attestation-bytes.mjs";
import { formatTlogProof } from "@/lib/verify/tlog-proof";
import { getConfig } from "../../config";
import { getDb } from "../../db";
import { toHex } from "../../crypto/hash";
import { getStore } from "../../store/index";
import { localOf, positionOf, shardOf } from "../../merkle/positions";
import { shardOrThrow } from "../../log/shards";
import { proveInclusion } from "../../log/log-proofs";
import { checkpointForProof, type WitnessRequirement } from "../../log/proof-checkpoint";
import type { BundleRows } from "../../store/types";
import { toAttestationView } from "../attestations";
import { notFound } from "../../errors";
import { toIssuerView } from "../attestations";
import { toTreeHeadView } from "./tree-head-view";
import { toKeyView } from "../attestations";

/**
 * With a TSA configured, the earliest time-stamped checkpoint that holds the entry at stored
 * position `position`, its token and the entry's inclusion proof in it
 * (lib/verify/bundle-timestamp.ts checks them); else none.
 */
async function timestampCovering(position: number) {
  if (!getConfig().tsaUrl) return undefined;
  const db = getDb().read;
  const shard = shardOf(position);
  const stamp = await db.checkpointTimestamp.findFirst({
    where: { treeSize: { gt: BigInt(position), lt: BigInt(positionOf(shard + 1, 0)) } },
    orderBy: { treeSize: "asc" },
  });
  if (!stamp) return undefined;
  const cp = await db.checkpoint.findUnique({ where: { treeSize: stamp.treeSize } });
  if (!cp) return undefined;
  const size = localOf(stamp.treeSize);
  const hashes = await proveInclusion(shard, localOf(position), size);
  return {
    checkpoint: cp.note,
    token: bytesToBase64(stamp.token),
    inclusion_proof: { tree_size: size, root_hash: toHex(cp.rootHash), hashes: hashes.map(toHex) },
  };
}

/** How a proof is handed out: whether it must meet the witness policy, and where to say whether it did. */
export interface ProofOptions {
  /** "required": wait (bounded) for a checkpoint the quorum cosigned, else not_yet_witnessed; "optional": the newest as it is. */
  witnessed: WitnessRequirement;
  /** An answer's headers: Hallmark-Witnessed is set to true or false when a quorum applies. */
  responseHeaders?: Record<string, string>;
}

/** The Hallmark-Witnessed header: whether the proof's checkpoint meets the witness policy's quorum. */
export const WITNESSED_HEADER = {
  name: "Hallmark-Witnessed",
  description:
    "Under a witness policy with a quorum: true when the proof's checkpoint meets it; false only when ?witnessed=optional took the proof before it did.",
};

/**
 * Everything needed to verify an attestation offline (lib/verify verifyProofBundle): the
 * attestation, its issuer and key, and its inclusion proof against the newest checkpoint, which
 * under a witness policy is the newest the quorum cosigned (server/log/proof-checkpoint.ts).
 * A hot path: one read for the rows (on SQLite with the proof's lowest nodes), one for the
 * proof nodes still missing, if any.
 */
export async function getProofBundle({ tenantId, id }: { tenantId: string; id: string }, proof: ProofOptions) {
  const rows = await getStore().reads.bundleRows(id, tenantId);
  if (!rows) throw notFound("Attestation");
  const position = Number(rows.attestation.logIndex);
  const shard = shardOf(position);
  const index = localOf(position);
  const [{ checkpoint, witnessed }, { origin }] = await Promise.all([
    checkpointForProof(position, rows.checkpoint, proof.witnessed),
    shardOrThrow(shard),
  ]);
  if (witnessed !== null && proof.responseHeaders) proof.responseHeaders[WITNESSED_HEADER.name.toLowerCase()] = String(witnessed);
  const size = localOf(checkpoint.treeSize);
  const [hashes, timestamp] = await Promise.all([proveInclusion(shard, index, size, rows.lowerNodes), timestampCovering(position)]);
  const sth = toTreeHeadView(origin, checkpoint);
  const seal = rows.attestation.seal ? await sealOf({ ...rows.attestation, seal: rows.attestation.seal }) : undefined;
  return {
    attestation: toAttestationView(rows.attestation),
    issuer: toIssuerView(rows.issuer),
    key: toKeyView(rows.signingKey),
    inclusion_proof: { log_index: index, tree_size: size, root_hash: sth.root_hash, hashes: hashes.map(toHex) },
    signed_tree_head: sth,
    ...(seal ? { seal } : {}),
    ...(timestamp ? { timestamp } : {}),
  };
}

/**
 * The opening of a row logged sealed: the sealed leaf the log holds, the salt that opens it to
 * the bundle's attestation, and the sealing issuer and key (lib/verify/bundle.ts checks them).
 * Only ever put in a bundle its reader may see whole: the owner's, or a public protection's.
 */
async function sealOf(row: BundleRows["attestation"] & { seal: string }) {
  const inner = canonicalFieldsOf(row);
  const { leaf, salt } = storedSeal(inner, row.signature, row.seal);
  const reads = getStore().reads;
  const [issuer, key] = await Promise.all([reads.issuer(leaf.issuer_id), reads.signingKey(leaf.kid)]);
  if (!issuer || !key) throw new Error(`the seal of attestation ${row.id} refers to a missing issuer or key`);
  return { leaf, salt, issuer: toIssuerView(issuer), key: toKeyView(key) };
}

/**
 * A proof bundle as a C2SP tlog-proof@v1, its `extra` line the leaf data (the file rebuilds the
 * leaf), or for a sealed entry the canonical JSON {opening, sealed} (lib/verify/tlog-proof.ts).
 */
export function toTlogProof(bundle: Awaited<ReturnType<typeof getProofBundle>>): string {
  const a = bundle.attestation;
  const attestation = {
    id: a.id,
    issuer_id: a.issuer_id,
    kid: a.kid,
    payload: a.payload,
    created_at: a.created_at,
    signature: a.signature,
  };
  const extra = bundle.seal
    ? utf8Encode(canonicalJson({ opening: { attestation, salt: bundle.seal.salt }, sealed: bundle.seal.leaf }))
    : leafData(attestation);
  return formatTlogProof({
    extra,
    index: bundle.inclusion_proof.log_index,
    proof: bundle.inclusion_proof.hashes.map((h) => Buffer.from(h, "hex")),
    checkpoint: bundle.signed_tree_head.checkpoint,
  });
}
