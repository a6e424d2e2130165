import "server-only";
import { bytesToHex } from "@/lib/verify";
import { getStore } from "../store";
import { getLogIdentity } from "../crypto/log-identity";
import { proveInclusion } from "../crypto/log-proofs";
import { getAttestationOrThrow, toAttestationView } from "./attestations";
import { toIssuerView } from "./issuers";
import { getLatestCheckpoint, toTreeHeadView } from "./log";
import { toKeyView } from "./signing-keys";

/**
 * Everything needed to verify an attestation offline (lib/verify verifyProofBundle): the
 * attestation, its issuer and key, and its inclusion proof against the newest checkpoint.
 */
export async function getProofBundle({ tenantId, id }: { tenantId: string; id: string }) {
  const row = await getAttestationOrThrow({ tenantId, id });
  const reads = getStore().reads;
  const [{ origin }, issuer, key, head] = await Promise.all([
    getLogIdentity(),
    reads.issuer(row.issuerId),
    reads.signingKey(row.kid),
    getLatestCheckpoint(),
  ]);
  if (!issuer || !key) throw new Error(`attestation ${id} refers to a missing issuer or key`);
  const index = Number(row.logIndex);
  const size = Number(head.treeSize);
  const hashes = await proveInclusion(index, size);
  const sth = toTreeHeadView(origin, head);
  return {
    attestation: toAttestationView(row),
    issuer: toIssuerView(issuer),
    key: toKeyView(key),
    inclusion_proof: { log_index: index, tree_size: size, root_hash: sth.root_hash, hashes: hashes.map(bytesToHex) },
    signed_tree_head: sth,
  };
}
