import "server-only";
import { toHex } from "../crypto/hash";
import { getStore } from "../store";
import { getLogIdentity } from "../log/log-identity";
import { proveInclusion } from "../log/log-proofs";
import { toAttestationView } from "./attestations";
import { notFound } from "./errors";
import { toIssuerView } from "./issuers";
import { toTreeHeadView } from "./log";
import { toKeyView } from "./signing-keys";

/**
 * Everything needed to verify an attestation offline (lib/verify verifyProofBundle): the
 * attestation, its issuer and key, and its inclusion proof against the newest checkpoint.
 * A hot path: one read for the rows (on SQLite with the proof's lowest nodes), one for the
 * proof nodes still missing, if any.
 */
export async function getProofBundle({ tenantId, id }: { tenantId: string; id: string }) {
  const { origin } = await getLogIdentity();
  const rows = await getStore().reads.bundleRows(id, tenantId);
  if (!rows) throw notFound("Attestation");
  const index = Number(rows.attestation.logIndex);
  const size = Number(rows.checkpoint.treeSize);
  const hashes = await proveInclusion(index, size, rows.lowerNodes);
  const sth = toTreeHeadView(origin, rows.checkpoint);
  return {
    attestation: toAttestationView(rows.attestation),
    issuer: toIssuerView(rows.issuer),
    key: toKeyView(rows.signingKey),
    inclusion_proof: { log_index: index, tree_size: size, root_hash: sth.root_hash, hashes: hashes.map(toHex) },
    signed_tree_head: sth,
  };
}
