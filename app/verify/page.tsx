import type { Metadata } from "next";
import { Card } from "../_components/ui";
import { ProofFileCheck } from "./proof-file-check";

export const metadata: Metadata = {
  title: "Check a proof file",
  description:
    "Drop a Hallmark proof bundle or .tlog-proof: your browser checks it against the log's key and witnesses, without trusting Hallmark.",
};

/** /verify: any proof file a visitor holds, checked in their browser (a protection's own page is /verify/<id>). */
export default function VerifyProofPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-teal-800">Check a proof</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight sm:text-4xl">Check a proof file</h1>
        <p className="mt-2 text-stone-700">
          A proof bundle (<code>.json</code>) or a C2SP <code>.tlog-proof</code>, from a creator, an organisation or the log itself: your
          browser checks it against this log&apos;s public key and its witnesses&apos; cosignatures. The file stays on your device. For a
          certificate (PDF), use <code>npm run verify -- certificate.pdf</code>.
        </p>
      </div>
      <Card aria-labelledby="proof-file-heading">
        <h2 id="proof-file-heading" className="sr-only">
          Your proof file
        </h2>
        <ProofFileCheck />
      </Card>
    </div>
  );
}
