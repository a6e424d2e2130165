import type { Metadata } from "next";
import type { ReactNode } from "react";
import { CopyButton } from "../../_components/copy-button";
import { oembedAlternates } from "../../_components/oembed-link";
import { Badge, DownloadLink, LinkButton, Mono } from "../../_components/ui";
import { loadViewedProtection, type PublicProtection } from "../../_components/verify-data";
import { ProtectedTime } from "../../_components/verify-facts";
import { categoryLabel, formatBytes, longDate, shortHash } from "../../_components/verify-format";

type Params = { params: Promise<{ id: string }> };

const GENERIC_TITLE = "A protected work";
const GENERIC_DESCRIPTION =
  "A work protected with a signed Hallmark attestation in a public transparency log. Anyone can verify it in the browser.";

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const p = await loadViewedProtection((await params).id);
  // Only its owner sees a private one: nothing of it goes into metadata a crawler or preview could keep.
  if (p.visibility !== "public") {
    return {
      title: GENERIC_TITLE,
      description: GENERIC_DESCRIPTION,
      openGraph: { title: GENERIC_TITLE, description: GENERIC_DESCRIPTION, type: "website", url: p.share_url },
      twitter: { card: "summary_large_image", title: GENERIC_TITLE, description: GENERIC_DESCRIPTION },
      alternates: oembedAlternates(p.share_url),
      robots: { index: false },
    };
  }
  const work = p.title ?? "Untitled work";
  const title = p.creator ? `${work} by ${p.creator.name}` : work;
  const description = clip(
    p.description?.trim()
      ? p.description.trim()
      : `Protected with Hallmark on ${longDate(p.protected_at)}: a signed attestation in a public log that anyone can verify.`,
    200,
  );
  return {
    title,
    description,
    openGraph: {
      title,
      description,
      type: "article",
      url: p.share_url,
      siteName: "Hallmark",
      publishedTime: p.protected_at,
      authors: p.creator ? [p.creator.name] : undefined,
    },
    twitter: { card: "summary_large_image", title, description },
    alternates: oembedAlternates(p.share_url),
  };
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold uppercase tracking-wide text-stone-600">{term}</dt>
      <dd className="mt-1 text-stone-900">{children}</dd>
    </div>
  );
}

function Seal() {
  return (
    <span
      aria-hidden
      className="grid h-14 w-14 shrink-0 place-items-center rounded-full border-2 border-white/70 bg-white/10 text-2xl font-semibold text-white"
    >
      H
    </span>
  );
}

function Actions({ p }: { p: PublicProtection }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <LinkButton href={`/verify/${p.protection_id}`} className="px-6 py-3 text-base">
        Verify this work
      </LinkButton>
      <CopyButton value={p.share_url} label="Copy share link" />
      <DownloadLink
        href={`/v1/protections/${encodeURIComponent(p.protection_id)}/certificate.pdf`}
        download={`hallmark-certificate-${p.protection_id}.pdf`}
      >
        Download certificate (PDF)
      </DownloadLink>
    </div>
  );
}

function PublicWork({ p }: { p: PublicProtection }) {
  return (
    <>
      <div className="bg-gradient-to-br from-teal-900 to-teal-700 px-6 py-8 text-white sm:px-10 sm:py-10">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <p className="text-sm font-medium uppercase tracking-wide text-teal-100">
              Protected with Hallmark · {categoryLabel(p.category)}
            </p>
            <h1 className="mt-3 break-words font-serif text-3xl leading-tight sm:text-5xl">{p.title ?? "Untitled work"}</h1>
            {p.creator ? (
              <p className="mt-4 text-lg text-teal-50">
                by{" "}
                <a
                  className="font-semibold text-white underline decoration-teal-200 underline-offset-4 hover:decoration-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                  href={p.creator.portfolio_url}
                >
                  {p.creator.name}
                </a>
              </p>
            ) : null}
          </div>
          <Seal />
        </div>
      </div>
      <div className="space-y-8 px-6 py-8 sm:px-10">
        {p.description ? <p className="whitespace-pre-line break-words text-lg leading-relaxed text-stone-800">{p.description}</p> : null}
        <dl className="grid gap-6 sm:grid-cols-2">
          <Fact term="Protected">
            <ProtectedTime iso={p.protected_at} />
          </Fact>
          {p.file_name !== null ? (
            <Fact term="File">
              <span className="break-all">{p.file_name}</span>
              {p.content_type || p.file_size !== null ? (
                <span className="block text-sm text-stone-600">
                  {[p.content_type, p.file_size !== null ? formatBytes(p.file_size) : null].filter(Boolean).join(" · ")}
                </span>
              ) : null}
            </Fact>
          ) : null}
          <Fact term="Fingerprint (SHA-256)">
            <Mono>
              <abbr title={`sha256:${p.content_hash}`} className="no-underline">
                {shortHash(p.content_hash)}
              </abbr>
            </Mono>
          </Fact>
          <Fact term="Attested by">{p.issuer.name}</Fact>
        </dl>
        <Actions p={p} />
      </div>
    </>
  );
}

/** Only the owner of a private protection reaches its page: what they see, and that no one else does. */
function OwnerOnly() {
  return (
    <div role="note" className="border-b border-amber-200 bg-amber-50 px-6 py-4 text-amber-950 sm:px-10">
      <p className="font-semibold">Private: only you can see this page.</p>
      <p className="mt-1 text-sm">
        Anyone else who opens this link is told it does not exist. Make the protection public from your dashboard to share it; its proof
        then opens its sealed entry in the public log.
      </p>
    </div>
  );
}

export default async function SharePage({ params }: Params) {
  const p = await loadViewedProtection((await params).id);
  return (
    <div className="mx-auto max-w-3xl">
      <article className="overflow-hidden rounded-3xl border border-stone-200 bg-white shadow-sm">
        {p.visibility === "public" ? null : <OwnerOnly />}
        <PublicWork p={p} />
      </article>
      <div className="mt-6 flex flex-wrap items-center justify-center gap-2 text-center text-sm text-stone-700">
        <Badge tone="success">Signed · publicly logged</Badge>
        <span>The attestation is signed and recorded in an append-only log; the verify page checks it in your browser.</span>
      </div>
    </div>
  );
}
