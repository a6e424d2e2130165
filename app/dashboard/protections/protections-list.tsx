"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Alert, Badge, Button, EmptyState, LinkButton, Mono, Select, Spinner } from "@/app/_components/ui";
import { useTRPC, useTRPCClient } from "@/app/_trpc/client";
import {
  CATEGORIES,
  CATEGORY_LABELS,
  CATEGORY_SHORT,
  formatBytes,
  isCategory,
  isVisibility,
  shortHash,
  type Category,
  type Visibility,
} from "@/app/_components/categories";
import type { ProtectionItem } from "../_components/protect-types";
import { LoadError } from "@/app/_components/load-error";
import { BadgeEmbed } from "../_components/badge-embed";
import { VisibilityToggle } from "../_components/visibility-toggle";
import { SimilarEarlier } from "./similar-earlier";

const PAGE_SIZE = "20";
const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const linkStyle =
  "inline-flex items-center rounded-lg border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700";

function nameOf(p: ProtectionItem) {
  return p.title || p.file_name || "Untitled";
}

function Row({ p }: { p: ProtectionItem }) {
  const name = nameOf(p);
  const category = isCategory(p.category) ? CATEGORY_SHORT[p.category] : p.category;
  return (
    <li>
      <article aria-label={name} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="break-words font-semibold text-stone-900">{name}</h3>
            <Badge tone={p.visibility === "public" ? "success" : "neutral"}>{p.visibility === "public" ? "Public" : "Private"}</Badge>
            <Badge tone="info">{category}</Badge>
          </div>
          <p className="text-sm text-stone-700">
            Protected <time dateTime={p.protected_at}>{dateTime.format(new Date(p.protected_at))}</time>
            {p.title && p.file_name ? <span className="break-all"> · {p.file_name}</span> : null}
            {p.file_size !== null ? ` · ${formatBytes(p.file_size)}` : null}
            {p.verification_count > 0 ? ` · checked ${p.verification_count} ${p.verification_count === 1 ? "time" : "times"}` : null}
          </p>
          <p className="text-sm text-stone-600">
            SHA-256{" "}
            <span title={p.content_hash}>
              <Mono>{shortHash(p.content_hash)}</Mono>
            </span>
            <span className="sr-only"> (full hash {p.content_hash})</span>
          </p>
          <SimilarEarlier p={p} name={name} />
        </div>
        <div className="flex shrink-0 gap-2">
          <a href={p.verify_url} className={linkStyle}>
            Verify<span className="sr-only"> {name}</span>
          </a>
          <a href={p.share_url} className={linkStyle}>
            Share<span className="sr-only"> {name}</span>
          </a>
          <a
            href={`/v1/protections/${encodeURIComponent(p.protection_id)}/certificate.pdf`}
            download={`hallmark-certificate-${p.protection_id}.pdf`}
            className={linkStyle}
          >
            Certificate<span className="sr-only"> of {name} (PDF)</span>
          </a>
          <VisibilityToggle p={p} name={name} />
        </div>
      </article>
      {/* A badge is drawn for public work only: a private protection's is 404 to everyone. */}
      {p.visibility === "public" ? <BadgeEmbed protectionId={p.protection_id} verifyUrl={p.verify_url} name={name} /> : null}
    </li>
  );
}

/** The creator's protections, filtered by the URL's ?category= and ?visibility=, a page at a time. */
export function ProtectionsList() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const rawCategory = params.get("category");
  const rawVisibility = params.get("visibility");
  const category: Category | undefined = isCategory(rawCategory) ? rawCategory : undefined;
  const visibility: Visibility | undefined = isVisibility(rawVisibility) ? rawVisibility : undefined;
  const filtered = Boolean(category || visibility);

  // By hand rather than infiniteQueryOptions: that adds `direction` (and a null cursor) to the
  // input, which the procedure's strict input schema rejects. The key still starts with the
  // procedure's path, so invalidating consumer queries after a mint refreshes this list.
  const input = { limit: PAGE_SIZE, category, visibility };
  const list = useInfiniteQuery({
    queryKey: [...trpc.consumer.protections.pathKey(), { input, type: "infinite" }],
    queryFn: ({ pageParam, signal }) =>
      client.consumer.protections.query({ ...input, ...(pageParam ? { cursor: pageParam } : {}) }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

  function setFilter(name: "category" | "visibility", value: string) {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(name, value);
    else next.delete(name);
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  }

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  return (
    <section aria-labelledby="list-heading" className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="list-heading" className="text-lg font-semibold">
          {list.isSuccess ? `${total} ${total === 1 ? "protection" : "protections"}${filtered ? " match" : ""}` : "Protections"}
        </h2>
        <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
          <div>
            <label htmlFor="filter-category" className="block text-sm font-medium text-stone-800">
              Category
            </label>
            <Select id="filter-category" value={category ?? ""} onChange={(e) => setFilter("category", e.target.value)} className="sm:w-48">
              <option value="">All categories</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <label htmlFor="filter-visibility" className="block text-sm font-medium text-stone-800">
              Visibility
            </label>
            <Select
              id="filter-visibility"
              value={visibility ?? ""}
              onChange={(e) => setFilter("visibility", e.target.value)}
              className="sm:w-36"
            >
              <option value="">All</option>
              <option value="public">Public</option>
              <option value="private">Private</option>
            </Select>
          </div>
        </div>
      </div>

      {list.isPending ? <Spinner label="Loading your protections…" /> : null}

      {list.isError ? <LoadError title="Your protections could not be loaded" error={list.error} retry={list.refetch} /> : null}

      {list.isSuccess && items.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No protections match these filters"
            action={
              <LinkButton href={pathname} variant="secondary">
                Clear filters
              </LinkButton>
            }
          >
            Try another category or visibility.
          </EmptyState>
        ) : (
          <EmptyState title="Nothing protected yet" action={<LinkButton href="/dashboard">Protect your first file</LinkButton>}>
            Drop a file on the Protect page: it is hashed in your browser, and you get a verify link and a share link in seconds.
          </EmptyState>
        )
      ) : null}

      {items.length > 0 ? (
        <ul
          className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm"
          aria-label="Protections, newest first"
        >
          {items.map((p) => (
            <Row key={p.protection_id} p={p} />
          ))}
        </ul>
      ) : null}

      {list.isSuccess && items.length > 0 ? (
        <div className="flex flex-col items-center gap-2">
          <p className="text-sm text-stone-600">
            Showing {items.length} of {total}
          </p>
          {list.hasNextPage ? (
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          ) : null}
          {list.isFetchNextPageError ? <Alert>More protections could not be loaded. Try again.</Alert> : null}
        </div>
      ) : null}
      {filtered && items.length > 0 ? (
        <p className="text-center text-sm">
          <Link href={pathname} className="font-medium text-teal-800 underline underline-offset-2">
            Clear filters
          </Link>
        </p>
      ) : null}
    </section>
  );
}
