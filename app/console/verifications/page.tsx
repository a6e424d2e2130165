import type { Metadata } from "next";
import { pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { ConsoleEyebrow, PageHeader } from "../../_components/ui";
import { RecentVerifications, VerificationRunner } from "./verification-runner";

export const metadata: Metadata = { title: "Verifications · Console" };

export default async function ConsoleVerificationsPage({ searchParams }: { searchParams: Promise<{ pack?: string }> }) {
  const { pack } = await searchParams;
  const viewer = await requireViewer(`/console/verifications${pack ? `?pack=${encodeURIComponent(pack)}` : ""}`, "organization");
  const packs = (await (await pageCaller()).packs.list({ status: "active" })).items.map((p) => ({
    id: p.id,
    name: p.name,
    is_template: p.is_template,
  }));
  return (
    <div className="space-y-8">
      <div>
        <ConsoleEyebrow org={viewer.tenant.name} />
        <PageHeader
          title="Verifications"
          lead="Check an attestation or any proof bundle of this log: the cryptographic checks against the log's key, then the rules of the pack you choose. Every check answers pass or fail with its reason."
        />
      </div>
      <VerificationRunner packs={packs} preselected={pack ?? null} />
      <RecentVerifications />
    </div>
  );
}
