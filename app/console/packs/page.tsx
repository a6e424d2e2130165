import type { Metadata } from "next";
import Link from "next/link";
import { pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { formatCount, formatDate } from "../../_components/api-keys-format";
import { PackStatusBadge, TemplateBadge } from "../../_components/pack-badges";
import { Card, ConsoleEyebrow, cx, EmptyState, LinkButton, PageHeader, textLink } from "../../_components/ui";

export const metadata: Metadata = { title: "Verification packs · Console" };

const FILTERS = [
  { value: undefined, label: "All" },
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
] as const;

export default async function ConsolePacksPage({ searchParams }: { searchParams: Promise<{ status?: string }> }) {
  const { status: raw } = await searchParams;
  const status = raw === "active" || raw === "archived" ? raw : undefined;
  const viewer = await requireViewer(`/console/packs${status ? `?status=${status}` : ""}`, "organization");
  const { items } = await (await pageCaller()).packs.list({ status, limit: "100" });
  const templates = items.filter((p) => p.is_template);
  const custom = items.filter((p) => !p.is_template);
  const canWrite = viewer.scopes.includes("packs:write");

  return (
    <div className="space-y-8">
      <div>
        <ConsoleEyebrow org={viewer.tenant.name} />
        <PageHeader
          title="Verification packs"
          lead="A pack is a verification policy: rules an attestation must meet on top of the cryptographic checks. Start from a built-in template or write your own."
          actions={
            <>
              <LinkButton href="/console/verifications" variant="secondary">
                Run a verification
              </LinkButton>
              {canWrite ? <LinkButton href="/console/packs/new">New pack</LinkButton> : null}
            </>
          }
        />
        <nav aria-label="Filter packs by status" className="flex flex-wrap gap-2">
          {FILTERS.map((f) => {
            const current = f.value === status;
            return (
              <Link
                key={f.label}
                href={f.value ? `/console/packs?status=${f.value}` : "/console/packs"}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700",
                  current ? "border-teal-800 bg-teal-800 text-white" : "border-stone-300 bg-white text-stone-800 hover:bg-stone-100",
                )}
              >
                {f.label}
              </Link>
            );
          })}
        </nav>
      </div>

      <section aria-labelledby="templates-heading" className="space-y-3">
        <div>
          <h2 id="templates-heading" className="text-lg font-semibold">
            Templates
          </h2>
          <p className="text-sm text-stone-700">Built in and read-only. Use one as it is, or clone it into a custom pack to adapt it.</p>
        </div>
        {templates.length ? (
          <PackTable packs={templates} caption="Built-in templates" />
        ) : (
          <p className="text-sm text-stone-700">No templates with this status.</p>
        )}
      </section>

      <section aria-labelledby="custom-heading" className="space-y-3">
        <div>
          <h2 id="custom-heading" className="text-lg font-semibold">
            Your custom packs
          </h2>
          <p className="text-sm text-stone-700">Newest first.</p>
        </div>
        {custom.length ? (
          <PackTable packs={custom} caption="Custom packs, newest first" />
        ) : status === "archived" ? (
          <EmptyState title="No archived custom packs">Packs you archive are kept here with their verification counts.</EmptyState>
        ) : (
          <EmptyState
            title="No custom packs yet"
            action={canWrite ? <LinkButton href="/console/packs/new">Create a pack</LinkButton> : null}
          >
            The quickest start is a template: open one above and choose <strong>Clone into a custom pack</strong>, then adjust its rules to
            your policy.
          </EmptyState>
        )}
      </section>
    </div>
  );
}

type PackItem = {
  id: string;
  name: string;
  category: string;
  region: string;
  status: string;
  is_template: boolean;
  verifications_count: number;
  created_at: string;
};

function PackTable({ packs, caption }: { packs: PackItem[]; caption: string }) {
  return (
    <>
      <div className="hidden overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Name
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Category
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Region
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Status
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Verifications
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Created
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {packs.map((p) => (
              <tr key={p.id} data-pack-id={p.id}>
                <th scope="row" className="px-4 py-3 font-normal">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link className={cx(textLink, "break-words")} href={`/console/packs/${p.id}`}>
                      {p.name}
                    </Link>
                    {p.is_template ? <TemplateBadge /> : null}
                  </div>
                </th>
                <td className="px-4 py-3">{p.category}</td>
                <td className="px-4 py-3">{p.region}</td>
                <td className="px-4 py-3">
                  <PackStatusBadge status={p.status} />
                </td>
                <td className="px-4 py-3 text-right tabular-nums">{formatCount(p.verifications_count)}</td>
                <td className="whitespace-nowrap px-4 py-3">
                  <time dateTime={p.created_at}>{formatDate(p.created_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden" aria-label={caption}>
        {packs.map((p) => (
          <li key={p.id} data-pack-id={p.id}>
            <Card className="!p-4">
              <div className="flex items-start justify-between gap-3">
                <h3 className="min-w-0 break-words">
                  <Link className={textLink} href={`/console/packs/${p.id}`}>
                    {p.name}
                  </Link>
                </h3>
                <PackStatusBadge status={p.status} />
              </div>
              <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-stone-700">
                {p.is_template ? <TemplateBadge /> : null}
                <span>{p.category}</span>
                <span aria-hidden>·</span>
                <span>{p.region}</span>
                <span aria-hidden>·</span>
                <span>
                  {formatCount(p.verifications_count)} {p.verifications_count === 1 ? "verification" : "verifications"}
                </span>
              </p>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
