import type { Metadata } from "next";
import { requireViewer } from "@/server/pages/page-viewer";
import { ConsoleEyebrow, PageHeader } from "../../_components/ui";
import { IssuerList } from "./issuer-list";

export const metadata: Metadata = { title: "Issuers · Console" };

export default async function ConsoleIssuersPage() {
  const viewer = await requireViewer("/console/issuers", "organization");
  return (
    <div>
      <ConsoleEyebrow org={viewer.tenant.name} />
      <PageHeader
        title="Issuers"
        lead="An issuer is who signs: a publication or a service, named by its domain. Each has its own Ed25519 signing key, and everything it signs lands in the public log."
      />
      <IssuerList canWrite={viewer.scopes.includes("issuers:write")} />
    </div>
  );
}
