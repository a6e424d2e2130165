import type { Metadata } from "next";
import Link from "next/link";
import { Badge, EmptyState } from "../../_components/ui";
import { loadPortfolio, PORTFOLIO_PAGE_SIZE, type PublicProtection } from "../../_components/verify-data";
import { categoryLabel, longDate, monthYear } from "../../_components/verify-format";

type Props = { params: Promise<{ userId: string }>; searchParams: Promise<{ offset?: string | string[] }> };

/** A page offset from the query: a multiple of the page size, else the first page. */
function offsetOf(raw: string | string[] | undefined): number {
  const n = typeof raw === "string" && /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  return n % PORTFOLIO_PAGE_SIZE === 0 && n <= 100_000 ? n : 0;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { creator } = await loadPortfolio((await params).userId, 0);
  const title = `${creator.name}'s portfolio`;
  const description = `Work by ${creator.name}, each piece signed and recorded in Hallmark's public transparency log.`;
  return { title, description, openGraph: { title, description, type: "profile", url: creator.portfolio_url } };
}

function WorkCard({ p }: { p: PublicProtection }) {
  return (
    <li>
      <Link
        href={`/share/${p.protection_id}`}
        className="group flex h-full flex-col rounded-2xl border border-stone-200 bg-white p-5 shadow-sm transition hover:border-teal-700 hover:shadow-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
      >
        <span className="flex items-center justify-between gap-2">
          <Badge>{categoryLabel(p.category)}</Badge>
          <time dateTime={p.protected_at} className="text-xs text-stone-600">
            {longDate(p.protected_at)}
          </time>
        </span>
        <span className="mt-3 break-words font-serif text-xl leading-snug text-stone-900 group-hover:text-teal-900">
          {p.title ?? "Untitled work"}
        </span>
        {p.description ? <span className="mt-2 line-clamp-3 break-words text-sm text-stone-700">{p.description}</span> : null}
        <span className="mt-auto pt-4 text-sm font-medium text-teal-800">View and verify →</span>
      </Link>
    </li>
  );
}

export default async function PortfolioPage({ params, searchParams }: Props) {
  const { userId } = await params;
  const offset = offsetOf((await searchParams).offset);
  const { creator, items, total } = await loadPortfolio(userId, offset);
  const first = offset + 1;
  const last = offset + items.length;
  const base = `/portfolio/${creator.id}`;
  const newer = offset > 0 ? (offset - PORTFOLIO_PAGE_SIZE > 0 ? `${base}?offset=${offset - PORTFOLIO_PAGE_SIZE}` : base) : null;
  const older = last < total ? `${base}?offset=${offset + PORTFOLIO_PAGE_SIZE}` : null;
  const pager =
    "rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700";
  return (
    <div>
      <header className="mb-8 flex items-center gap-4">
        <span aria-hidden className="grid h-16 w-16 shrink-0 place-items-center rounded-full bg-teal-800 font-serif text-2xl text-white">
          {creator.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
        <div className="min-w-0">
          <h1 className="break-words text-3xl font-semibold tracking-tight">{creator.name}</h1>
          <p className="mt-1 text-stone-700">
            Member since {monthYear(creator.member_since)} · {total} public {total === 1 ? "work" : "works"}
          </p>
        </div>
      </header>

      {total === 0 ? (
        <EmptyState title="No public work yet">
          <p>When {creator.name} makes a protected work public, it appears here with its proof.</p>
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState
          title="Nothing on this page"
          action={
            <Link className={pager} href={base}>
              Back to the newest work
            </Link>
          }
        />
      ) : (
        <section aria-labelledby="works-heading">
          <h2 id="works-heading" className="sr-only">
            Public work
          </h2>
          <ul role="list" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((p) => (
              <WorkCard key={p.protection_id} p={p} />
            ))}
          </ul>
          <nav aria-label="Pages" className="mt-8 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-stone-700">
              Showing {first}–{last} of {total}
            </p>
            <div className="flex gap-2">
              {newer ? (
                <Link className={pager} href={newer}>
                  ← Newer work
                </Link>
              ) : null}
              {older ? (
                <Link className={pager} href={older}>
                  Older work →
                </Link>
              ) : null}
            </div>
          </nav>
        </section>
      )}
    </div>
  );
}
