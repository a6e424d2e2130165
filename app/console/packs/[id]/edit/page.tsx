import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { orNotFound, pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { PackForm } from "../../../../_components/pack-form";
import { Alert, Breadcrumbs, Card, LinkButton, PageHeader } from "../../../../_components/ui";

export const metadata: Metadata = { title: "Edit pack · Console" };

export default async function EditPackPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer(`/console/packs/${encodeURIComponent(id)}/edit`, "organization");
  const pack = await orNotFound((await pageCaller()).packs.get({ id }));
  if (!viewer.scopes.includes("packs:write")) notFound();

  return (
    <div className="space-y-6">
      <Breadcrumbs
        trail={[{ label: "Packs", href: "/console/packs" }, { label: pack.name, href: `/console/packs/${pack.id}` }, { label: "Edit" }]}
      />
      <PageHeader
        title={`Edit “${pack.name}”`}
        lead="Each saved change adds one to the pack's revision; every verification records the revision it used."
      />
      {pack.is_template ? (
        <Alert tone="info" title="Templates are read-only">
          <p>Clone this template into a custom pack to change its rules.</p>
          <LinkButton className="mt-3" href={`/console/packs/${pack.id}`} variant="secondary">
            Back to the template
          </LinkButton>
        </Alert>
      ) : (
        <Card className="max-w-3xl">
          <PackForm
            mode="edit"
            packId={pack.id}
            cancelHref={`/console/packs/${pack.id}`}
            initial={{ name: pack.name, description: pack.description, category: pack.category, region: pack.region, rules: pack.rules }}
          />
        </Card>
      )}
    </div>
  );
}
