import type { Metadata } from "next";
import { PageHeader } from "@/app/_components/ui";
import { requireViewer } from "@/server/pages/page-viewer";
import { Protector } from "./_components/protect";
import { UsageSummary } from "./_components/usage";

export const metadata: Metadata = { title: "Protect" };

export default async function ProtectPage() {
  await requireViewer("/dashboard", "consumer");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Protect your work"
        lead="Get a signed, timestamped record in a public log that this exact file existed, and that it is yours."
      />
      <div className="flex gap-3 rounded-2xl border border-teal-200 bg-teal-50 px-4 py-3 text-teal-950">
        <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 h-5 w-5 shrink-0 text-teal-800">
          <path
            fillRule="evenodd"
            d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
            clipRule="evenodd"
          />
        </svg>
        <p className="text-sm">
          <strong className="font-semibold">Your file never leaves this browser.</strong> Hallmark computes its SHA-256 fingerprint right
          here on your device; only that hash and the details you type are sent. Keep the original file: it is what anyone will check
          against your proof.
        </p>
      </div>
      <UsageSummary />
      <Protector />
    </div>
  );
}
