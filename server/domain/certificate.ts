import "server-only";
import { type getProofBundle, toTlogProof } from "./proof-bundles";
import { getPublicProofBundle, getPublicProtection, type PublicProtectionView } from "./public-protections";

/**
 * What a certificate states and carries: the protection exactly as its verify link shows it (a
 * private protection's details are null there, so they cannot reach the PDF), and its proofs,
 * which travel inside the PDF as attachments.
 */
export interface CertificateData {
  protection: PublicProtectionView;
  proof_bundle: Awaited<ReturnType<typeof getProofBundle>>;
  tlog_proof: string;
}

/** GET /v1/protections/{id}/certificate.pdf: the facts and proofs the PDF is drawn from. */
export async function getCertificate({ id }: { id: string }): Promise<CertificateData> {
  const [protection, bundle] = await Promise.all([getPublicProtection({ id }), getPublicProofBundle({ id })]);
  return { protection, proof_bundle: bundle, tlog_proof: toTlogProof(bundle) };
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
