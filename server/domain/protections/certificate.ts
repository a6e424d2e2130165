import "server-only";
import { stampStatement } from "../../log/timestamping";
import { type getProofBundle, type ProofOptions, toTlogProof } from "../public-log";
import { getPublicProofBundle, getPublicProtection, type PublicProtectionView, type Viewer } from "./public-protections";

type ProofBundleView = Awaited<ReturnType<typeof getProofBundle>>;

/**
 * What a certificate states and carries: the protection exactly as its verify link shows it (a
 * private protection's details are null there, so they cannot reach the PDF), and its proofs,
 * which travel inside the PDF as attachments.
 */
export interface CertificateData {
  protection: PublicProtectionView;
  proof_bundle: ProofBundleView;
  tlog_proof: string;
  /** What the bundle's RFC 3161 token states (checked against the pinned TSA when it was stored); null without one. */
  timestamped: { existed_by: string; tsa: string } | null;
}

/** A certificate's data from the protection's public view and its proof bundle (the route's and the export's). */
export async function certificateOf(protection: PublicProtectionView, bundle: ProofBundleView): Promise<CertificateData> {
  const timestamped = bundle.timestamp
    ? await stampStatement(bundle.signed_tree_head.origin, bundle.timestamp.inclusion_proof.tree_size)
    : null;
  return { protection, proof_bundle: bundle, tlog_proof: toTlogProof(bundle), timestamped };
}

/** GET /v1/protections/{id}/certificate.pdf: the facts and proofs the PDF is drawn from. */
export async function getCertificate({ id, viewer }: { id: string; viewer?: Viewer }, proof: ProofOptions): Promise<CertificateData> {
  const [protection, bundle] = await Promise.all([getPublicProtection({ id, viewer }), getPublicProofBundle({ id, viewer }, proof)]);
  return certificateOf(protection, bundle);
}

/** The names on a checkpoint's signature lines other than the log's own: the witnesses that cosigned it. */
export function cosignerNames(checkpoint: string, origin: string): string[] {
  const [, signatures = ""] = checkpoint.split("\n\n");
  const names = signatures
    .split("\n")
    .filter((l) => l.startsWith("— "))
    .map((l) => l.slice(2).split(" ")[0]!)
    .filter((n) => n !== origin);
  return [...new Set(names)];
}

export const certificateFileName = (protectionId: string) => `hallmark-certificate-${protectionId}.pdf`;
