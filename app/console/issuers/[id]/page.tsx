import type { Metadata } from "next";
import { orNotFound, pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { IssuerDetail } from "./issuer-detail";

export const metadata: Metadata = { title: "Issuer · Console" };

export default async function ConsoleIssuerPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const { id } = await params;
  const { created } = await searchParams;
  const viewer = await requireViewer(`/console/issuers/${encodeURIComponent(id)}`, "organization");
  const issuer = await orNotFound((await pageCaller()).issuers.get({ id }));
  return (
    <IssuerDetail
      initial={issuer}
      orgName={viewer.tenant.name}
      canRotate={viewer.scopes.includes("issuers:write")}
      justCreated={created === "1"}
    />
  );
}
