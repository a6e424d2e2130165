import type { Metadata } from "next";
import Link from "next/link";
import { orNotFound, pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { formatCount, formatDateTime } from "../../../_components/api-keys-format";
import { ClonePackButton, PackStatusButton } from "../../../_components/pack-actions";
import { CustomBadge, PackStatusBadge, TemplateBadge } from "../../../_components/pack-badges";
import { PackRuleList } from "../../../_components/pack-rules-text";
import { Alert, Breadcrumbs, Card, ConsoleEyebrow, LinkButton, Mono, PageHeader, textLink } from "../../../_components/ui";

export const metadata: Metadata = { title: "Verification pack · Console" };

export default async function ConsolePackPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string; cloned?: string; saved?: string }>;
}) {
  const { id } = await params;
  const notice = await searchParams;
  const viewer = await requireViewer(`/console/packs/${encodeURIComponent(id)}`, "organization");
  const caller = await pageCaller();
  const pack = await orNotFound(caller.packs.get({ id }));
  const source = pack.metadata.cloned_from ? await caller.packs.get({ id: pack.metadata.cloned_from }).catch(() => null) : null;
  const canWrite = viewer.scopes.includes("packs:write");
  const canVerify = viewer.scopes.includes("verifications:write") && pack.status === "active";

  return (
    <div className="space-y-8">
      <Breadcrumbs trail={[{ label: "Packs", href: "/console/packs" }, { label: pack.name }]} />

      <div className="space-y-4">
        <div>
          <ConsoleEyebrow org={viewer.tenant.name} />
          <PageHeader title={pack.name} lead={pack.description || (pack.is_template ? undefined : "No description yet.")} />
          <div className="-mt-2 flex flex-wrap gap-2">
            {canVerify ? (
              <LinkButton href={`/console/verifications?pack=${pack.id}`} variant={pack.is_template ? "secondary" : "primary"}>
                Run a verification with this pack
              </LinkButton>
            ) : null}
            {canWrite && pack.is_template ? <ClonePackButton pack={{ id: pack.id, name: pack.name }} /> : null}
            {canWrite && !pack.is_template ? (
              <>
                <LinkButton href={`/console/packs/${pack.id}/edit`} variant="secondary">
                  Edit
                </LinkButton>
                <PackStatusButton pack={{ id: pack.id, name: pack.name, status: pack.status }} />
                <ClonePackButton pack={{ id: pack.id, name: pack.name }} label="Clone" variant="secondary" />
              </>
            ) : null}
          </div>
        </div>
        {notice.created === "1" ? (
          <Alert tone="success" title="Pack created">
            It is active and can be used for verifications now.
          </Alert>
        ) : null}
        {notice.cloned === "1" ? (
          <Alert tone="success" title="Pack cloned">
            This custom pack is yours to edit; the original is unchanged.
          </Alert>
        ) : null}
        {notice.saved === "1" ? (
          <Alert tone="success" title="Changes saved">
            Verifications from now on use these rules.
          </Alert>
        ) : null}
        {pack.is_template ? (
          <Alert tone="info" title="A built-in template">
            Templates are read-only. Clone it into a custom pack to change its rules.
          </Alert>
        ) : null}
        {pack.status === "archived" ? (
          <Alert tone="warning" title="Archived">
            This pack cannot be used for new verifications until it is restored.
          </Alert>
        ) : null}
      </div>

      <Card aria-labelledby="pack-facts">
        <h2 id="pack-facts" className="sr-only">
          About this pack
        </h2>
        <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-stone-600">Kind</dt>
            <dd className="mt-1">{pack.is_template ? <TemplateBadge /> : <CustomBadge />}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Status</dt>
            <dd className="mt-1">
              <PackStatusBadge status={pack.status} />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Category</dt>
            <dd className="mt-1 break-words">{pack.category}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Region</dt>
            <dd className="mt-1 break-words">{pack.region}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Verifications</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid="verifications-count">
              {formatCount(pack.verifications_count)}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Created</dt>
            <dd className="mt-1">
              <time dateTime={pack.created_at}>{formatDateTime(pack.created_at)}</time>
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Updated</dt>
            <dd className="mt-1">
              <time dateTime={pack.updated_at}>{formatDateTime(pack.updated_at)}</time> (revision {pack.metadata.revision})
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-stone-600">{source ? "Cloned from" : "Pack id"}</dt>
            <dd className="mt-1 break-words">
              {source ? (
                <Link className={textLink} href={`/console/packs/${source.id}`}>
                  {source.name}
                </Link>
              ) : (
                <Mono>{pack.id}</Mono>
              )}
            </dd>
          </div>
        </dl>
      </Card>

      <section aria-labelledby="rules-heading" className="space-y-4">
        <div>
          <h2 id="rules-heading" className="text-lg font-semibold">
            Rules
          </h2>
          <p className="mt-1 text-sm text-stone-700">What a verification with this pack checks, in order. Every check must pass.</p>
        </div>
        <Card>
          <PackRuleList rules={pack.rules} />
        </Card>
        <details className="group rounded-2xl border border-stone-200 bg-white">
          <summary className="flex cursor-pointer items-center justify-between gap-2 rounded-2xl px-4 py-3 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700">
            Rules as JSON (rule language version {pack.metadata.rules_version})
            <span aria-hidden className="text-stone-600 transition-transform group-open:rotate-90">
              ›
            </span>
          </summary>
          <div className="border-t border-stone-200 p-4">
            <pre
              data-testid="rules-json"
              className="overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-stone-900 p-3 font-mono text-xs leading-relaxed text-stone-50"
            >
              {JSON.stringify(pack.rules, null, 2)}
            </pre>
          </div>
        </details>
      </section>
    </div>
  );
}
