import type { Metadata } from "next";
import { Suspense } from "react";
import { DownloadLink, LinkButton, PageHeader, Spinner } from "@/app/_components/ui";
import { requireViewer } from "@/server/pages/page-viewer";
import { UsageMeter } from "../_components/usage";
import { ProtectionsList } from "./protections-list";

export const metadata: Metadata = { title: "Your protections" };

export default async function ProtectionsPage() {
  await requireViewer("/dashboard/protections", "consumer");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Your protections"
        lead="Everything you have protected, newest first. Public ones also appear on your portfolio."
        actions={
          <>
            <DownloadLink href="/v1/consumer/export">Download all, with proofs (.zip)</DownloadLink>
            <LinkButton href="/dashboard">Protect a file</LinkButton>
          </>
        }
      />
      <UsageMeter />
      <Suspense fallback={<Spinner label="Loading your protections…" />}>
        <ProtectionsList />
      </Suspense>
    </div>
  );
}
