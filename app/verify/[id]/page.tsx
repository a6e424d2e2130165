import type { Metadata } from "next";
import Link from "next/link";
import { FileCheck } from "../../_components/file-check";
import { oembedAlternates } from "../../_components/oembed-link";
import { Card } from "../../_components/ui";
import { loadViewedProtection } from "../../_components/verify-data";
import { VerifyFacts } from "../../_components/verify-facts";
import { ProofCheck } from "./proof-check";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const p = await loadViewedProtection((await params).id);
  const title = p.visibility === "public" && p.title ? `Verify “${p.title}”` : "Verify a protection";
  const description =
    "Check this Hallmark attestation's signature and transparency-log proof in your browser, and whether your copy of the file matches.";
  return {
    title,
    description,
    openGraph: { title, description, type: "website", url: p.verify_url },
    twitter: { card: "summary_large_image", title, description },
    alternates: oembedAlternates(p.verify_url),
    robots: p.visibility === "public" ? undefined : { index: false },
  };
}

export default async function VerifyPage({ params }: Params) {
  const p = await loadViewedProtection((await params).id);
  const isPublic = p.visibility === "public";
  return (
    <div>
      <div className="mb-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-teal-800">Hallmark attestation</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight sm:text-4xl">Verify this protection</h1>
        <p className="mt-2 max-w-2xl text-stone-700">
          {isPublic ? (
            <>
              {p.title ? <>“{p.title}”</> : "This work"}
              {p.creator ? <> by {p.creator.name}</> : null} is signed and recorded in a public log. Your browser checks the proof below,
              and you can check that a file is the attested one.
            </>
          ) : (
            <>
              This protection is private: only you can see this page, and anyone else who opens the link is told it does not exist. The
              public log holds its entry sealed; your browser opens it with the salt in your proof and checks it below.
            </>
          )}
        </p>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <Card aria-labelledby="proof-heading">
            <h2 id="proof-heading" className="mb-4 text-lg font-semibold">
              Cryptographic proof
            </h2>
            <ProofCheck protectionId={p.protection_id} contentHash={p.content_hash} attestationId={p.attestation_id} />
          </Card>
          <Card aria-labelledby="file-heading">
            <h2 id="file-heading" className="text-lg font-semibold">
              Is your copy the attested file?
            </h2>
            <p className="mb-4 mt-1 text-sm text-stone-700">
              Your file is hashed with SHA-256 (and a picture fingerprinted with PDQ) right here; it is never uploaded.
            </p>
            <FileCheck contentHash={p.content_hash} pdq={p.fingerprints.find((f) => f.alg === "pdq") ?? null} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card aria-labelledby="facts-heading">
            <h2 id="facts-heading" className="text-lg font-semibold">
              What was attested
            </h2>
            <VerifyFacts p={p} />
          </Card>
          <p className="text-sm text-stone-700">
            <Link className="font-medium text-teal-800 underline underline-offset-2" href={`/share/${p.protection_id}`}>
              {isPublic ? "See the work's share page" : "See the share page"}
            </Link>
          </p>
        </div>
      </div>
    </div>
  );
}
