import type { Metadata } from "next";
import Link from "next/link";
import { pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { ClonePackButton } from "../../../_components/pack-actions";
import { PackForm } from "../../../_components/pack-form";
import { Alert, Breadcrumbs, Card, PageHeader, textLink } from "../../../_components/ui";

export const metadata: Metadata = { title: "New pack · Console" };

export default async function NewPackPage() {
  const viewer = await requireViewer("/console/packs/new", "organization");
  const canWrite = viewer.scopes.includes("packs:write");
  const templates = (await (await pageCaller()).packs.list({ is_template: "true" })).items;

  return (
    <div className="space-y-6">
      <Breadcrumbs trail={[{ label: "Packs", href: "/console/packs" }, { label: "New pack" }]} />
      <PageHeader
        title="New verification pack"
        lead="Write the policy's rules yourself, or start from a built-in template and adapt its copy."
      />
      {!canWrite ? (
        <Alert title="You cannot create packs">Your account lacks the packs:write permission.</Alert>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <Card aria-labelledby="write-heading">
            <h2 id="write-heading" className="mb-4 text-lg font-semibold">
              Write your own
            </h2>
            <PackForm mode="create" cancelHref="/console/packs" />
          </Card>
          <Card aria-labelledby="start-heading" className="h-fit">
            <h2 id="start-heading" className="text-lg font-semibold">
              Or start from a template
            </h2>
            <p className="mt-1 text-sm text-stone-700">A copy with the template&rsquo;s rules, yours to edit.</p>
            <ul className="mt-4 divide-y divide-stone-200">
              {templates.map((t) => (
                <li key={t.id} className="flex flex-col gap-2 py-3">
                  <Link className={`${textLink} break-words`} href={`/console/packs/${t.id}`}>
                    {t.name}
                  </Link>
                  <span className="text-xs text-stone-600">
                    {t.category} · {t.region}
                  </span>
                  <div>
                    <ClonePackButton pack={{ id: t.id, name: t.name }} label={`Clone “${t.name}”`} variant="secondary" />
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      )}
    </div>
  );
}
