// The attestation's facts as a definition list, shared by the verify and share pages. A private
// protection's pages are served to its owner only (anyone else gets 404), so what is shown here
// is theirs.
import type { ReactNode } from "react";
import type { PublicProtection } from "./verify-data";
import { categoryLabel, formatBytes, relativeTime, utcDateTime } from "./verify-format";
import { CopyButton } from "./copy-button";
import { Mono } from "./ui";

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-3 sm:grid sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-stone-600">{term}</dt>
      <dd className="mt-1 min-w-0 text-stone-900 sm:mt-0">{children}</dd>
    </div>
  );
}

export function ProtectedTime({ iso }: { iso: string }) {
  return (
    <>
      <time dateTime={iso}>{utcDateTime(iso)}</time> <span className="text-stone-600">({relativeTime(iso)})</span>
    </>
  );
}

export function VerifyFacts({ p, showWork = true }: { p: PublicProtection; showWork?: boolean }) {
  const hash = `sha256:${p.content_hash}`;
  return (
    <dl className="divide-y divide-stone-200">
      {showWork && p.title !== null ? <Row term="Title">{p.title}</Row> : null}
      {showWork && p.creator ? (
        <Row term="Creator">
          <a className="font-medium text-teal-800 underline underline-offset-2 hover:text-teal-900" href={p.creator.portfolio_url}>
            {p.creator.name}
          </a>
        </Row>
      ) : null}
      {showWork && p.file_name !== null ? (
        <Row term="File">
          <span className="break-all">{p.file_name}</span>
          {p.content_type || p.file_size !== null ? (
            <span className="block text-sm text-stone-600">
              {[p.content_type, p.file_size !== null ? formatBytes(p.file_size) : null].filter(Boolean).join(" · ")}
            </span>
          ) : null}
        </Row>
      ) : null}
      <Row term="Content hash">
        <span className="flex flex-col items-start gap-2">
          <Mono className="text-stone-900">{hash}</Mono>
          <CopyButton value={hash} label="Copy hash" className="px-3 py-1 text-xs" />
        </span>
      </Row>
      <Row term="Issuer">{p.issuer.name}</Row>
      <Row term="Protected">
        <ProtectedTime iso={p.protected_at} />
      </Row>
      <Row term="Log index">
        <Mono>{p.log_index}</Mono>
      </Row>
      <Row term="Attestation ID">
        <Mono>{p.attestation_id}</Mono>
      </Row>
      <Row term="Category">{categoryLabel(p.category)}</Row>
      <Row term="Visibility">
        {p.visibility === "public" ? "Public" : "Private: only its owner sees this page; anyone else is told it does not exist"}
      </Row>
    </dl>
  );
}
